import Foundation
import Imaging
import Library
import SystemPackage
import Testing
import TestSupport

/// "Open with" as the specifications say it: the `.desktop` files of private data folders (a user's
/// hiding a system one), `mimeapps.list`'s default, added and removed associations, and Exec lines'
/// quoting and field codes.
@Suite struct DesktopApplicationsTests {
    struct Folders {
        let root = try! TemporaryFolder()
        var environment: [String: String] {
            ["HOME": root.path + "/home", "XDG_DATA_HOME": root.path + "/home/.local/share", "XDG_DATA_DIRS": root.path + "/usr/share",
             "XDG_CONFIG_HOME": root.path + "/home/.config", "XDG_CONFIG_DIRS": root.path + "/etc/xdg"]
        }

        func desktop(_ path: String, name: String, exec: String, types: String = "image/jpeg;image/png;", extra: String = "") throws {
            try root.write(path, Array("""
                [Desktop Entry]
                Type=Application
                Name=\(name)
                Name[de]=\(name) (de)
                Exec=\(exec)
                MimeType=\(types)
                \(extra)

                [Desktop Action new-window]
                Name=Another
                Exec=other

                """.utf8))
        }
    }

    @Test func theDefaultFirstThenAddedThenTheRestByNameAndHiddenOnesLeftOut() throws {
        let f = Folders()
        try f.desktop("usr/share/applications/org.gnome.Loupe.desktop", name: "Image Viewer", exec: "loupe %U")
        try f.desktop("usr/share/applications/gimp.desktop", name: "GNU Image Manipulation Program", exec: "gimp-2.10 %U")
        try f.desktop("usr/share/applications/kde4/gwenview.desktop", name: "Gwenview", exec: "gwenview %U")
        try f.desktop("usr/share/applications/nodisplay.desktop", name: "Hidden Helper", exec: "helper %f", extra: "NoDisplay=true")
        try f.desktop("usr/share/applications/feh.desktop", name: "feh", exec: "feh %F")
        // The user's own file of the same ID hides the system's.
        try f.desktop("home/.local/share/applications/feh.desktop", name: "feh", exec: "feh", extra: "Hidden=true")
        try f.desktop("usr/share/applications/text.desktop", name: "Text Editor", exec: "gedit %U", types: "text/plain;")
        try f.root.write("home/.config/mimeapps.list", Array("""
            [Default Applications]
            image/jpeg=org.gnome.Loupe.desktop;
            [Added Associations]
            image/jpeg=text.desktop;
            [Removed Associations]
            image/jpeg=gimp.desktop;

            """.utf8))
        let applications = DesktopApplications(environment: f.environment)
        // A helper kept out of menus (NoDisplay) still opens its types, as the specification says.
        #expect(applications.applications(for: "image/jpeg").map(\.id)
                == ["org.gnome.Loupe.desktop", "text.desktop", "kde4-gwenview.desktop", "nodisplay.desktop"])
        #expect(applications.applications(for: "image/png").map(\.name) == ["GNU Image Manipulation Program", "Gwenview", "Hidden Helper", "Image Viewer"])
        #expect(applications.applications(for: "image/heic").isEmpty)
    }

    @Test func execLinesAreSplitAndTheirFieldCodesFilled() throws {
        let f = Folders()
        try f.desktop("usr/share/applications/a.desktop", name: "A", exec: #"sh -c "echo \"\$1\" > out" sh %f"#)
        try f.desktop("usr/share/applications/b.desktop", name: "B b", exec: "b --title=%c --uri %u --pct 100%% %i %d", extra: "Icon=b-icon")
        try f.desktop("usr/share/applications/c.desktop", name: "C", exec: "c --new-window")
        let applications = DesktopApplications(environment: f.environment)
        func command(_ id: String, _ path: FilePath) throws -> [String] {
            let entry = try #require(applications.applications(for: "image/jpeg").first { $0.id == id })
            return try #require(DesktopApplications.command(for: entry, opening: path)).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(try command("a.desktop", "/p/my photo.jpg") == ["sh", "-c", #"echo "$1" > out"#, "sh", "/p/my photo.jpg"])
        #expect(try command("b.desktop", "/p/my photo.jpg")
                == ["b", "--title=B b", "--uri", "file:///p/my%20photo.jpg", "--pct", "100%", "--icon", "b-icon", ""])
        // No file named on the line: the path follows it.
        #expect(try command("c.desktop", "/p/x.jpg") == ["c", "--new-window", "/p/x.jpg"])
        // A name that is not UTF-8 is passed as its bytes.
        let latin = FilePath(bytes: Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let entry = try #require(applications.applications(for: "image/jpeg").first { $0.id == "a.desktop" })
        #expect(DesktopApplications.command(for: entry, opening: latin)?.last == latin.bytes)
    }

    /// The MIME applications specification's precedence: the current desktop's list before the plain one, the
    /// old `defaults.list` last; a removal takes away only what lower lists (and `.desktop` files) add; an
    /// application that runs in a terminal is not offered.
    @Test func listsAreWeighedAsTheSpecificationSays() throws {
        let f = Folders()
        for (id, name) in [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma"), ("d", "Delta")] {
            try f.desktop("usr/share/applications/\(id).desktop", name: name, exec: "\(id) %f", types: "image/tiff;")
        }
        try f.desktop("usr/share/applications/term.desktop", name: "Terminal Viewer", exec: "tv %f", types: "image/tiff;", extra: "Terminal=true")
        try f.root.write("home/.config/gnome-mimeapps.list", Array("[Default Applications]\nimage/tiff=c.desktop;\n".utf8))
        try f.root.write("home/.config/mimeapps.list", Array("""
            [Default Applications]
            image/tiff=a.desktop;
            [Added Associations]
            image/tiff=d.desktop;
            [Removed Associations]
            image/tiff=b.desktop;

            """.utf8))
        // Lower: it adds b (removed above, so not taken) and removes d (added above, so kept).
        try f.root.write("etc/xdg/mimeapps.list", Array("[Added Associations]\nimage/tiff=b.desktop;\n[Removed Associations]\nimage/tiff=d.desktop;\n".utf8))
        try f.root.write("usr/share/applications/defaults.list", Array("[Default Applications]\nimage/x-dcraw=d.desktop;\n".utf8))
        var environment = f.environment
        environment["XDG_CURRENT_DESKTOP"] = "ubuntu:GNOME"
        let applications = DesktopApplications(environment: environment)
        #expect(applications.applications(for: "image/tiff").map(\.id) == ["c.desktop", "a.desktop", "d.desktop"])
        #expect(applications.applications(for: "image/x-dcraw").map(\.id) == ["d.desktop"])
        // A Canon raw file: its own type has none here, so its parents' applications are offered.
        #expect(ImageFormat.raw.mimeTypes.count == ImageFormat.raw.extensions.count, "the RAW row's types and extensions go in step")
        let types = ImageFormat.raw.openWithTypes(extension: "CR2")
        #expect(types == ["image/x-canon-cr2", "image/x-dcraw", "image/tiff"])
        #expect(applications.applications(forAny: types).map(\.id) == ["d.desktop", "c.desktop", "a.desktop"])
    }
}
