import Foundation
import Glibc
import Library
import SystemPackage
import Testing
import TestSupport

/// The freedesktop Trash on real folders: a file is moved (never unlinked) with a `.trashinfo` a file
/// manager can read, goes back byte for byte, and on another file system goes to that one's own trash.
@Suite struct TrashTests {
    /// A photo folder and a data home, both in one temporary folder.
    struct Fixture {
        let root = try! TemporaryFolder()
        var photos: String { root.path + "/Pictures" }
        var data: String { root.path + "/data" }

        /// The home's trash, with `mounted` taken as mount points besides the real ones.
        func trash(mounted: [String] = []) -> Trash {
            Trash(environment: ["XDG_DATA_HOME": data, "HOME": "/nonexistent"],
                  mountPoints: { MountPoints.read() + mounted.map { FilePath($0) } })!
        }

        @discardableResult
        func photo(_ name: String, _ bytes: [UInt8] = Array("a photo's bytes".utf8)) throws -> String {
            try root.write("Pictures/" + name, bytes)
        }
    }

    /// The `.trashinfo`'s keys and values, after its `[Trash Info]` line.
    func fields(_ info: FilePath) throws -> [String: String] {
        // Read by its bytes: the `.trashinfo` of a name that is not UTF-8 has that name too.
        let fd = try FileDescriptor.open(info, .readOnly)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = try fd.closeAfter { try bytes.withUnsafeMutableBytes { try fd.read(into: $0) } }
        let lines = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "[Trash Info]")
        return Dictionary(uniqueKeysWithValues: lines.dropFirst().map { line in
            let parts = line.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), String(parts[1]))
        })
    }

    @Test func aPhotoGoesToTheHomeTrashWithItsInfoAndComesBackAsItWas() throws {
        let f = Fixture()
        let bytes = (0..<5000).map { UInt8($0 % 251) }
        let path = try f.photo("IMG_0001.jpg", bytes)
        let item = try f.trash().trash(FilePath(path))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(item.file == FilePath(f.data + "/Trash/files/IMG_0001.jpg"))
        #expect(item.info == FilePath(f.data + "/Trash/info/IMG_0001.jpg.trashinfo"))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: item.file.string))) == bytes)
        let info = try fields(item.info)
        #expect(info["Path"] == path)
        // Local time, to the second, as the specification writes it.
        let date = try #require(info["DeletionDate"])
        #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) != nil, "\(date)")
        var mode = stat()
        #expect(stat(f.data + "/Trash", &mode) == 0 && mode.st_mode & 0o777 == 0o700)

        try f.trash().restore(item)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.data + "/Trash/files").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.data + "/Trash/info").isEmpty)
    }

    @Test func aNameTakenInTheTrashGetsANumber() throws {
        let f = Fixture()
        let first = try f.trash().trash(FilePath(try f.photo("a/IMG.jpg")))
        let second = try f.trash().trash(FilePath(try f.photo("b/IMG.jpg")))
        #expect(first.file.lastComponent?.string == "IMG.jpg")
        #expect(second.file.lastComponent?.string == "IMG.2.jpg")
        #expect(try fields(second.info)["Path"] == f.photos + "/b/IMG.jpg")
    }

    @Test func thePathIsEscapedAsInAURL() throws {
        let f = Fixture()
        let folder = FilePath(f.photos).appending("Trip 100%")
        try FileManager.default.createDirectory(atPath: folder.string, withIntermediateDirectories: true)
        // A name that is not UTF-8 (Latin-1 "é"), beside its sibling named with U+FFFD, as the byte would
        // be shown: only the one asked for moves, under its own bytes, and comes back.
        let path = FilePath(bytes: folder.bytes + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let sibling = folder.appending("caf\u{FFFD}.jpg")
        for file in [path, sibling] { #expect(file.withPlatformString { creat($0, 0o644) } >= 0) }
        let item = try f.trash().trash(path)
        #expect(try fields(item.info)["Path"] == f.photos + "/Trip%20100%25/caf%E9.jpg")
        let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        #expect(Array(item.file.bytes.suffix(8)) == latin1Name)
        #expect(path.withPlatformString { access($0, F_OK) } != 0 && sibling.withPlatformString { access($0, F_OK) } == 0)
        try f.trash().restore(item)
        #expect(path.withPlatformString { access($0, F_OK) } == 0)
    }

    /// A folder bind-mounted elsewhere is a mount of its own (the same device, but `rename` across it fails):
    /// its photo goes to a trash at the mount's top, as GIO puts it, not to the home's.
    @Test func aBindMountedFolderHasItsOwnTrash() throws {
        let f = Fixture()
        let source = f.root.path + "/source", mounted = f.photos + "/Camera"
        try f.root.write("source/IMG_0004.jpg", Array("bytes".utf8))
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        #expect(mount(source, mounted, nil, UInt(MS_BIND), nil) == 0, "mount --bind: \(Errno(rawValue: errno))")
        defer { umount2(mounted, Int32(MNT_DETACH)) }
        let item = try f.trash().trash(FilePath(mounted + "/IMG_0004.jpg"))
        #expect(item.file == FilePath("\(mounted)/.Trash-\(getuid())/files/IMG_0004.jpg"))
        #expect(try fields(item.info)["Path"] == "IMG_0004.jpg")
        try f.trash().restore(item)
        #expect(FileManager.default.fileExists(atPath: source + "/IMG_0004.jpg"))
    }

    @Test func mountPointsAreReadWithTheirEscapes() {
        let text = """
            22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            42 22 8:17 / /media/me/My\\040Card rw,nosuid - vfat /dev/sdb1 rw
            43 22 0:5 /x /srv/a\\134b rw - tmpfs none rw
            """
        #expect(MountPoints.parse(Array(text.utf8)) == [FilePath("/"), FilePath("/media/me/My Card"), FilePath("/srv/a\\b")])
        let mounts = [FilePath("/"), FilePath("/media/me/My Card")]
        #expect(MountPoints.top(of: FilePath("/media/me/My Card/DCIM"), among: mounts) == FilePath("/media/me/My Card"))
        #expect(MountPoints.top(of: FilePath("/media/me/My Cards"), among: mounts) == FilePath("/"))
    }

    /// The folder "volume" is made to look like another file system: its files go to its own
    /// `.Trash-$uid`, or to `.Trash/$uid` where an administrator made a sticky `.Trash`.
    @Test func onAnotherFileSystemItsOwnTrashAtItsTop() throws {
        let f = Fixture()
        let volume = f.root.path + "/volume"
        let path = try f.root.write("volume/DCIM/100CANON/IMG_0002.jpg", Array("bytes".utf8))
        let item = try f.trash(mounted: [volume]).trash(FilePath(path))
        #expect(item.file == FilePath("\(volume)/.Trash-\(getuid())/files/IMG_0002.jpg"))
        // Below its top folder, as the specification asks of a file system's own trash.
        #expect(try fields(item.info)["Path"] == "DCIM/100CANON/IMG_0002.jpg")
        #expect(!FileManager.default.fileExists(atPath: f.data + "/Trash"))
        try f.trash(mounted: [volume]).restore(item)

        #expect(mkdir(volume + "/.Trash", 0o777) == 0 && chmod(volume + "/.Trash", 0o1777) == 0)
        let again = try f.trash(mounted: [volume]).trash(FilePath(path))
        #expect(again.file == FilePath("\(volume)/.Trash/\(getuid())/files/IMG_0002.jpg"))
    }

    @Test func aFileOfTheSameNameBackInItsPlaceIsNotReplaced() throws {
        let f = Fixture()
        let path = try f.photo("IMG.jpg", Array("old".utf8))
        let item = try f.trash().trash(FilePath(path))
        try f.photo("IMG.jpg", Array("new".utf8))
        #expect(throws: Trash.Failure.self) { try f.trash().restore(item) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(FileManager.default.fileExists(atPath: item.file.string))
    }

    @Test func aMissingFileIsOneLineAndNothingIsWritten() throws {
        let f = Fixture()
        let error = #expect(throws: Trash.Failure.self) { try f.trash().trash(FilePath(f.photos + "/gone.jpg")) }
        #expect(error?.description.contains("gone.jpg: cannot be moved to the trash") == true)
        #expect(error?.description.contains("\n") == false)
        #expect(!FileManager.default.fileExists(atPath: f.data + "/Trash"))
    }

    /// `~/Pictures` a link to a folder on another file system: a photo deleted through the link goes to that
    /// file system's trash at its real top, not to a `.Trash-$uid` made inside the link's target.
    @Test func throughALinkedFolderTheRealFileSystemsTrash() throws {
        let f = Fixture()
        let disk = f.root.path + "/disk"
        let real = try f.root.write("disk/Photos/2024/IMG_0003.jpg", Array("bytes".utf8))
        #expect(symlink(disk + "/Photos", f.root.path + "/Pictures") == 0)
        let item = try f.trash(mounted: [disk]).trash(FilePath(f.photos + "/2024/IMG_0003.jpg"))
        #expect(item.file == FilePath("\(disk)/.Trash-\(getuid())/files/IMG_0003.jpg"))
        #expect(item.original == FilePath(real))
        #expect(try fields(item.info)["Path"] == "Photos/2024/IMG_0003.jpg")
        #expect(!FileManager.default.fileExists(atPath: disk + "/Photos/.Trash-\(getuid())"))
        try f.trash(mounted: [disk]).restore(item)
        #expect(FileManager.default.fileExists(atPath: real))
    }
}
