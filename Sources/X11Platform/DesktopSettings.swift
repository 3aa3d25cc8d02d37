import CX11
import Foundation

/// The desktop's settings as GTK and Qt read them on X11: the XSETTINGS manager (gsd-xsettings,
/// xsettingsd, xfsettingsd) owns the selection `_XSETTINGS_Sn` and keeps every setting in its
/// window's `_XSETTINGS_SETTINGS` property (freedesktop XSETTINGS specification 0.5).
public struct DesktopSettings: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case integer(Int32)
        case string(String)
        /// Red, green, blue, alpha, 16 bits each.
        case colour(UInt16, UInt16, UInt16, UInt16)
    }

    public let values: [String: Value]

    /// Whether the desktop asks for less motion: GNOME's and Xfce's "animations" switch, published as
    /// `Gtk/EnableAnimations` (0: off). Nil where no manager runs, or it does not say.
    public var enablesAnimations: Bool? {
        guard case .integer(let on)? = values["Gtk/EnableAnimations"] else { return nil }
        return on != 0
    }

    /// Larger properties are not settings.
    static let maxBytes = 1 << 20

    /// The settings of screen `n`'s manager; nil where none runs (or its property can't be read).
    public static func read(displayName: String?) -> DesktopSettings? {
        guard let display = XOpenDisplay(displayName) else { return nil }
        defer { XCloseDisplay(display) }
        let selection = XInternAtom(display, "_XSETTINGS_S\(XDefaultScreen(display))", 0)
        let property = XInternAtom(display, "_XSETTINGS_SETTINGS", 0)
        let owner = XGetSelectionOwner(display, selection)
        guard owner != 0 else { return nil }
        // The manager may quit between the two requests: its window is then gone (BadWindow).
        let previous = XSetErrorHandler { _, _ in 0 }
        defer { XSetErrorHandler(previous) }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, owner, property, 0, maxBytes / 4, 0, property,
                                        &type, &format, &count, &remaining, &data)
        XSync(display, 0)
        guard status == Success, let data else { return nil }
        defer { XFree(data) }
        guard format == 8, remaining == 0 else { return nil }
        return parse(Array(UnsafeBufferPointer(start: data, count: Int(count))))
    }

    /// The settings in a `_XSETTINGS_SETTINGS` property; nil when the bytes are not one. A setting of a
    /// type this reader does not know ends the list (its length can't be known), keeping those before it.
    public static func parse(_ bytes: [UInt8]) -> DesktopSettings? {
        var reader = Reader(bytes: bytes)
        guard let order = reader.byte(), reader.skip(3) else { return nil }
        reader.bigEndian = order == 1   // MSBFirst
        guard reader.card32() != nil, let count = reader.card32() else { return nil }   // serial, then N
        var values: [String: Value] = [:]
        for _ in 0..<min(count, UInt32(bytes.count / 8)) {
            guard let type = reader.byte(), reader.skip(1), let nameLength = reader.card16(),
                  let name = reader.string(Int(nameLength)), reader.card32() != nil else { break }
            let value: Value
            switch type {
            case 0:
                guard let v = reader.card32() else { return DesktopSettings(values: values) }
                value = .integer(Int32(bitPattern: v))
            case 1:
                guard let length = reader.card32(), let s = reader.string(Int(length)) else { return DesktopSettings(values: values) }
                value = .string(s)
            case 2:
                guard let r = reader.card16(), let g = reader.card16(), let b = reader.card16(), let a = reader.card16()
                else { return DesktopSettings(values: values) }
                value = .colour(r, g, b, a)
            default:
                return DesktopSettings(values: values)
            }
            values[name] = value
        }
        return DesktopSettings(values: values)
    }

    /// Reads the property's fields in the manager's byte order.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var bigEndian = false

        mutating func skip(_ n: Int) -> Bool {
            guard n >= 0, at + n <= bytes.count else { return false }
            at += n
            return true
        }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        private mutating func unsigned(_ size: Int) -> UInt32? {
            guard at + size <= bytes.count else { return nil }
            let field = bytes[at..<at + size]
            at += size
            return (bigEndian ? Array(field) : field.reversed()).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func card16() -> UInt16? { unsigned(2).map { UInt16($0) } }
        mutating func card32() -> UInt32? { unsigned(4) }

        /// `length` bytes of UTF-8, then the padding to a multiple of four.
        mutating func string(_ length: Int) -> String? {
            let padded = (length + 3) / 4 * 4
            guard length >= 0, at + padded <= bytes.count else { return nil }
            let s = String(decoding: bytes[at..<at + length], as: UTF8.self)
            at += padded
            return s
        }
    }
}
