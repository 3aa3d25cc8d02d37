import Foundation
import Glibc
import Imaging
import Testing
import TestSupport

/// A folder as disks hold them: every photo shows, whatever its name's bytes, and every entry that
/// can't be shown is named once on standard error, saying why.
@Suite struct OddFilesTests {
    /// `name`'s bytes as a path in `folder` (it need not be UTF-8), written with `bytes`.
    func write(_ bytes: [UInt8], named name: [UInt8], in folder: String) throws {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name
        let fd = path.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { chars -> Int32 in
            var terminated = Array(chars)
            terminated.append(0)
            return open(terminated, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    @Test func aLatin1NameShowsItsPhotoAndUnreadableEntriesAreNamedOnce() throws {
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestImages.bundledFolder + "/grace_hopper.jpg")))
        let odd = try TemporaryFolder(), plain = try TemporaryFolder(), out = try TemporaryFolder()
        // "café.jpg" in Latin-1: é is the one byte E9, which is not UTF-8.
        try write(photo, named: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), in: odd.path)
        // The name as the viewer shows it, in UTF-8: the same picture is expected.
        try write(photo, named: Array("caf\u{FFFD}.jpg".utf8), in: plain.path)
        let locked = try odd.write("locked.jpg", photo)
        #expect(chmod(locked, 0) == 0)
        try FileManager.default.createSymbolicLink(atPath: odd.path + "/gone.jpg", withDestinationPath: odd.path + "/nothing.jpg")

        let (s1, errors) = try ViewerProcess.run(["--headless", "--size", "400x300", "--screenshot", out.path + "/odd.png", odd.path],
                                                 asAUser: true)
        let (s2, _) = try ViewerProcess.run(["--headless", "--size", "400x300", "--screenshot", out.path + "/plain.png", plain.path])
        #expect(s1 == 0 && s2 == 0, "\(errors)")
        let lines = errors.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("gone.jpg") } == ["photozoom: warning: \(odd.path)/gone.jpg: a link to nothing (dangling)"])
        #expect(lines.filter { $0.contains("locked.jpg") } == ["photozoom: warning: \(odd.path)/locked.jpg: cannot read the file: permission denied"])
        #expect(lines.count == 2, "\(errors)")

        // The first cell (below the 56 pt bar) holds the Latin-1 photo as its UTF-8 twin's cell holds it.
        let oddShot = try ImageDecoder.decode(path: out.path + "/odd.png").image
        let plainShot = try ImageDecoder.decode(path: out.path + "/plain.png").image
        for (x, y) in [(20, 80), (50, 120), (80, 100)] {
            #expect(oddShot.pixel(x: x, y: y) == plainShot.pixel(x: x, y: y), "at \(x),\(y)")
        }
    }
}
