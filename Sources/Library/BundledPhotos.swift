import Foundation

/// Finds the photos that ship with the viewer, wherever it runs from.
public enum BundledPhotos {
    /// The first folder that holds them: `$PHOTOZOOM_IMAGES`; `<prefix>/share/photozoom/Images`
    /// next to an installed binary; an `Images` folder above the binary (`swift run`, `make run`
    /// build into `.build/…` inside the checkout); the checkout this was compiled from.
    public static func folder(executable: String = "/proc/self/exe") -> String? {
        candidates(executable: executable).first { isPhotoFolder($0) }
    }

    static func candidates(executable: String) -> [String] {
        var list: [String] = []
        if let env = ProcessInfo.processInfo.environment["PHOTOZOOM_IMAGES"] { list.append(env) }
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        list.append(dir.deletingLastPathComponent().appendingPathComponent("share/photozoom/Images").path)
        for _ in 0..<6 {
            list.append(dir.appendingPathComponent("Images").path)
            dir = dir.deletingLastPathComponent()
        }
        // Sources/App/BundledPhotos.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        list.append(root.appendingPathComponent("Images").path)
        return list
    }

    private static func isPhotoFolder(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("CREDITS.md"))
    }
}
