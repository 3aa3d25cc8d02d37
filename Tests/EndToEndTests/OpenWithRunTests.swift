import Foundation
import Glibc
import Testing
import TestSupport

/// The photo's menu in the viewer's own runs: a `.desktop` file installed in a private `XDG_DATA_DIRS` is
/// listed ("Open with …") and, chosen with the keys, started detached with the photo's path; "Show in
/// Folder" without a session bus opens the folder in the application for folders.
@Suite struct OpenWithRunTests {
    /// A private data folder with an application for JPEG and PNG, and one for folders: each a script that
    /// writes the arguments it was given to a file of its own.
    struct Desktop {
        let data = try! TemporaryFolder(), scratch = try! TemporaryFolder(), photos = try! TemporaryFolder()
        var said: (String) -> String { { scratch.path + "/" + $0 + ".txt" } }

        init() throws {
            try photos.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "grace hopper.jpg")
            for (name, types) in [("viewer", "image/jpeg;image/png;"), ("files", "inode/directory;")] {
                let script = try scratch.write(name + ".sh", Array("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(scratch.path)/\(name).tmp'\nmv '\(scratch.path)/\(name).tmp' '\(scratch.path)/\(name).txt'\n".utf8))
                #expect(chmod(script, 0o755) == 0)
                try data.write("applications/test-\(name).desktop", Array("""
                    [Desktop Entry]
                    Type=Application
                    Name=Test \(name.capitalized)
                    Exec=\(script) %f
                    MimeType=\(types)

                    """.utf8))
            }
        }

        /// Runs the viewer headless on `target` (the photos' folder), from `directory` (the scratch folder).
        func run(_ script: String, target: String? = nil, directory: URL? = nil) throws -> (Int32?, String) {
            let file = try scratch.write("script.txt", Array(script.utf8))
            let runtime = try TemporaryFolder()
            let viewer = try ViewerProcess(["--headless", "--no-thumbnail-cache", "--size", "400x300", "--script", file, target ?? photos.path],
                                           environment: ["XDG_DATA_DIRS": data.path, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime.path,
                                                         "XDG_CONFIG_HOME": scratch.path, "XDG_CONFIG_DIRS": scratch.path],
                                           directory: directory ?? scratch.url)
            return (viewer.waitForExit(seconds: 60), viewer.standardError)
        }

        /// What the application at `name` was started with, once it has written it (up to 10 s).
        func arguments(_ name: String) -> String? {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: said(name), encoding: .utf8) { return text }
                usleep(50_000)
            }
            return nil
        }
    }

    @Test func anApplicationInTheDataFoldersOpensThePhoto() throws {
        let d = try Desktop()
        let (status, said) = try d.run("tap 60 110\nwait 900\nkey o\nwait 200\ndump \(d.scratch.path)/menu.json\nkey Down\nkey Return\nwait 300\n")
        #expect(status == 0, "\(said)")
        let menu = try DumpedNode.all(in: d.scratch.path + "/menu.json").filter { $0.name.hasPrefix("menu.item.") }.compactMap(\.text)
        #expect(menu == ["Open with Test Viewer", "Show in Folder"])
        #expect(d.arguments("viewer") == d.photos.path + "/grace hopper.jpg\n")
        #expect(said.contains("opened with Test Viewer"), "\(said)")
    }

    @Test func showInFolderWithoutASessionBusOpensTheFolder() throws {
        let d = try Desktop()
        let (status, said) = try d.run("tap 60 110\nwait 900\nkey o\nkey Up\nkey Return\nwait 300\n")
        #expect(status == 0, "\(said)")
        #expect(d.arguments("files") == d.photos.path + "\n")
    }

    /// A name that holds a command, opened with an application whose Exec line hands the name to a shell
    /// (`sh -c "touch %f.opened"`): the name is quoted for the shell, so the file is touched and the
    /// command in its name never runs.
    @Test func aCommandInAPhotosNameNeverRuns() throws {
        let d = try Desktop()
        let hostile = "a$(touch pwned).jpg"
        try d.photos.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: hostile)
        try FileManager.default.removeItem(atPath: d.photos.path + "/grace hopper.jpg")
        try d.data.write("applications/test-viewer.desktop", Array("""
            [Desktop Entry]
            Type=Application
            Name=Test Shell
            Exec=sh -c "touch %f.opened"
            MimeType=image/jpeg;

            """.utf8))
        let (status, said) = try d.run("tap 60 110\nwait 900\nkey o\nkey Down\nkey Return\nwait 300\n")
        #expect(status == 0, "\(said)")
        let opened = d.photos.path + "/" + hostile + ".opened"
        #expect(WindowSession.wait(seconds: 10) { FileManager.default.fileExists(atPath: opened) }, "\(said)")
        for folder in [d.photos.path, d.scratch.path] {
            #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"), "the name ran a command in \(folder)")
        }
    }

    /// A Live Photo (its still and the `.MOV` beside it, one item): the menu opens the still in the application for
    /// photos, and its movie in the one for movies.
    @Test func aLivePhotosMovieOpensInAnApplicationForMovies() throws {
        let d = try Desktop()
        try FileManager.default.removeItem(atPath: d.photos.path + "/grace hopper.jpg")
        try AppleLivePhoto.make(still: "IMG_0001.JPG", movie: "IMG_0001.MOV", identifier: "7D6C1A2B-0001", in: d.photos)
        let script = try d.scratch.write("player.sh", Array("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(d.scratch.path)/player.tmp'\nmv '\(d.scratch.path)/player.tmp' '\(d.scratch.path)/player.txt'\n".utf8))
        #expect(chmod(script, 0o755) == 0)
        try d.data.write("applications/test-player.desktop", Array("""
            [Desktop Entry]
            Type=Application
            Name=Test Player
            Exec=\(script) %U
            MimeType=video/quicktime;video/mp4;

            """.utf8))
        let (status, said) = try d.run("tap 60 110\nwait 900\nkey o\nwait 200\ndump \(d.scratch.path)/menu.json\nkey Down\nkey Down\nkey Return\nwait 300\n")
        #expect(status == 0, "\(said)")
        let menu = try DumpedNode.all(in: d.scratch.path + "/menu.json").filter { $0.name.hasPrefix("menu.item.") }.compactMap(\.text)
        #expect(menu == ["Open with Test Viewer", "Open Live movie with Test Player", "Show in Folder"])
        #expect(d.arguments("player") == "file://" + d.photos.path + "/IMG_0001.MOV\n", "its movie, by its URI")
        #expect(said.contains("IMG_0001.MOV opened with Test Player"), "\(said)")
    }

    /// `photozoom .` from the photos' folder: the application is given the photo's absolute path.
    @Test func aRelativeFolderGivesAbsolutePaths() throws {
        let d = try Desktop()
        let (status, said) = try d.run("tap 60 110\nwait 900\nkey o\nkey Down\nkey Return\nwait 300\n", target: ".", directory: d.photos.url)
        #expect(status == 0, "\(said)")
        #expect(d.arguments("viewer") == d.photos.path + "/grace hopper.jpg\n")
    }
}
