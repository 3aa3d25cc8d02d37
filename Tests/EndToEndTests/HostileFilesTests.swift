import Foundation
import Imaging
import Testing
import TestSupport

/// Files made to hurt a viewer, in a folder as a user's disk might hold them: each is one line on
/// standard error, the viewer's memory stays in proportion to the pictures, and a name can't forge
/// a message of its own.
@Suite struct HostileFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    @Test func eachIsOneLineAndCostsLittleMemory() throws {
        let folder = try TemporaryFolder(), out = try TemporaryFolder()
        let names = ["claims-1gib-tEXt.png", "claims-1gib-zTXt.png", "claims-1gib-iTXt.png", "claims-1gib-iCCP.png",
                     "precision12.jpg", "dnl-height.jpg", "extraneous-bytes.jpg"]
        for name in names { try folder.copy(Self.fixtures + "/" + name, as: name) }
        // A damaged file whose name holds a newline and a forged message.
        let forged = "x\nphotozoom: error: the disk is on fire.jpg"
        try folder.write(forged, Array("not a picture".utf8))

        let run = try MeasuredRun(["--headless", "--no-thumbnail-cache", "--size", "400x300", "--screenshot",
                                   out.path + "/shot.png", folder.path])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardError.split(separator: "\n").map(String.init)
        for name in names.dropLast() {
            #expect(lines.filter { $0.contains(name) }.count == 1, "one line for \(name): \(run.standardError)")
        }
        #expect(!run.standardError.contains("extraneous-bytes.jpg"), "a whole JPEG with stray bytes is shown, not named")
        #expect(lines.contains("photozoom: warning: \(folder.path)/x\\nphotozoom: error: the disk is on fire.jpg: "
                               + "not an image the viewer knows (\(ImageFormat.namesInWords))"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("photozoom: error") }, "no forged line")
        #expect(lines.count == names.count, "\(run.standardError)")
        // Each 1 GiB claim, decoded on two threads at once, once cost 2 GiB.
        #expect(run.peakKiB < 256 << 10, "peak RSS \(run.peakKiB) KiB")
    }
}
