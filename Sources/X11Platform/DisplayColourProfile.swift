import CX11
import Foundation

/// The display's colour profile, where the desktop set one, read as eog and Gwenview read it: the ICC
/// profile in the root window's `_ICC_PROFILE` property (`_ICC_PROFILE_n` for screen n), as the X
/// Color Management specification has colour daemons (colord, xiccd) and `dispwin -I` set it.
public enum DisplayColourProfile {
    /// Larger properties are not profiles.
    static let maxBytes = 16 << 20

    /// The profile's bytes; nil where none is set (the display is then taken as sRGB).
    public static func read(displayName: String?) -> [UInt8]? {
        guard let display = XOpenDisplay(displayName) else { return nil }
        defer { XCloseDisplay(display) }
        let screen = XDefaultScreen(display)
        let property = XInternAtom(display, screen == 0 ? "_ICC_PROFILE" : "_ICC_PROFILE_\(screen)", 1)
        guard property != 0 else { return nil }   // the atom was never made: nobody set a profile
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // The length is in 32-bit units.
        guard XGetWindowProperty(display, XRootWindow(display, screen), property, 0, maxBytes / 4, 0, Atom(AnyPropertyType),
                                 &type, &format, &count, &remaining, &data) == Success, let data else { return nil }
        defer { XFree(data) }
        guard format == 8, count > 0, remaining == 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
    }
}
