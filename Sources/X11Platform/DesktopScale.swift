import CX11
import Foundation

/// How many device pixels the desktop wants a point to be, read as GTK reads it: `GDK_SCALE` (a
/// whole number), else the X resource `Xft.dpi` ÷ 96 (to the nearest quarter; what desktop
/// settings write for a scaled screen), else 1.
public enum DesktopScale {
    public static func detect(displayName: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        if let gdk = environment["GDK_SCALE"].flatMap(Int.init), gdk >= 1 { return Double(min(gdk, 4)) }
        guard let display = XOpenDisplay(displayName) else { return 1 }
        defer { XCloseDisplay(display) }
        return XResourceManagerString(display).map { scale(fromResources: String(cString: $0)) } ?? 1
    }

    /// The scale that `Xft.dpi` in a resource string asks for (1 when it is missing or below 96).
    static func scale(fromResources resources: String) -> Double {
        for line in resources.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            return min(max((dpi / 96 * 4).rounded() / 4, 1), 4)
        }
        return 1
    }
}
