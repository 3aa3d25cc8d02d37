import Testing
@testable import X11Platform

/// The XSETTINGS property as managers write it (specification 0.5): least-significant byte first
/// here (the window test's manager writes the other order).
@Suite struct DesktopSettingsTests {
    /// A property with an integer, a string and a colour, least-significant byte first.
    static func property(animations: Int32, cut: Int? = nil) -> [UInt8] {
        func card32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func card16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func name(_ s: String) -> [UInt8] {
            let utf8 = Array(s.utf8)
            return card16(UInt16(utf8.count)) + utf8 + [UInt8](repeating: 0, count: (4 - utf8.count % 4) % 4)
        }
        var bytes: [UInt8] = [0, 0, 0, 0] + card32(42) + card32(3)
        bytes += [1, 0] + name("Net/ThemeName") + card32(5) + card32(7) + Array("Adwaita".utf8) + [0]
        bytes += [0, 0] + name("Gtk/EnableAnimations") + card32(9) + card32(UInt32(bitPattern: animations))
        bytes += [2, 0] + name("Gtk/Colour") + card32(1) + card16(0xFFFF) + card16(0x8000) + card16(0) + card16(0xFFFF)
        return cut.map { Array(bytes.prefix($0)) } ?? bytes
    }

    @Test func readsEveryKindOfSetting() throws {
        let settings = try #require(DesktopSettings.parse(Self.property(animations: 0)))
        #expect(settings.values["Net/ThemeName"] == .string("Adwaita"))
        #expect(settings.values["Gtk/Colour"] == .colour(0xFFFF, 0x8000, 0, 0xFFFF))
        #expect(settings.enablesAnimations == false)
        #expect(DesktopSettings.parse(Self.property(animations: 1))?.enablesAnimations == true)
    }

    @Test func aCutPropertyKeepsWhatCameBeforeTheCut() throws {
        // Cut inside the animations setting: the theme name stands, the rest is not guessed.
        let settings = try #require(DesktopSettings.parse(Self.property(animations: 0, cut: 50)))
        #expect(settings.values["Net/ThemeName"] == .string("Adwaita"))
        #expect(settings.enablesAnimations == nil)
        #expect(DesktopSettings.parse([0, 0]) == nil, "not a settings property")
        #expect(DesktopSettings.parse([]) == nil)
    }

    @Test func noSettingMeansTheDesktopDidNotSay() {
        #expect(DesktopSettings(values: [:]).enablesAnimations == nil)
        #expect(DesktopSettings(values: ["Gtk/EnableAnimations": .string("0")]).enablesAnimations == nil)
    }
}
