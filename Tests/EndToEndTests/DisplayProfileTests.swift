import Foundation
import Imaging
import Pixels
import Testing
import TestSupport

/// The display's colour profile, set on the root window as colour daemons set it: the window shows
/// pictures in its colours, while screenshots, recordings and the thumbnail cache stay sRGB.
@Suite(.serialized) struct DisplayProfileTests {
    @Test func aDisplayProfileIsHonouredAndFilesStaySRGB() throws {
        let session = try WindowSession()
        let adobe = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc")))
        session.client.setRootProperty("_ICC_PROFILE", bytes: adobe)
        let photos = try TemporaryFolder(), cache = try TemporaryFolder()
        // An untagged (so sRGB) photo of pure red.
        let red = try photos.write("red.png", try TestImages.solid(width: 400, height: 300, argb: 0xFFFF_0000).pngData())
        let (viewer, window) = try session.launch(["--size", "400x300", "--verbose", red], environment: ["XDG_CACHE_HOME": cache.path])
        // On an Adobe RGB display, sRGB red is Adobe RGB's (219, 0, 0).
        var shown: UInt32 = 0
        #expect(session.wait { shown = session.client.capture(window)?.pixel(x: 200, y: 150) ?? 0; return isNear(shown, 219, 0, 0) },
                "the window shows \(String(shown, radix: 16)); stderr: \(viewer.standardError)")
        #expect(viewer.standardError.contains("display colour profile: Compatible with Adobe RGB (1998)"), "\(viewer.standardError)")

        // A screenshot is sRGB: red again.
        session.client.movePointer(to: 200, 150)
        session.client.press(key: "s")
        var saved: [String] = []
        #expect(session.wait {
            saved = ((try? FileManager.default.contentsOfDirectory(atPath: session.scratch.path)) ?? []).filter { $0.hasSuffix(".png") }
            return !saved.isEmpty
        })
        let shot = try ImageDecoder.decode(path: session.scratch.appendingPathComponent(try #require(saved.first)).path).image
        #expect(isNear(shot.pixel(x: 200, y: 150), 255, 0, 0), "\(String(shot.pixel(x: 200, y: 150), radix: 16))")

        // A recording is sRGB too.
        session.client.press(key: "r")
        usleep(700_000)
        session.client.press(key: "r")
        var recording: String?
        #expect(session.wait {
            recording = ((try? FileManager.default.contentsOfDirectory(atPath: session.scratch.path)) ?? []).first { $0.hasSuffix(".webp") }
            return recording != nil && viewer.standardError.contains("saved recording")
        }, "\(viewer.standardError)")
        let frame = try ImageDecoder.decode(path: session.scratch.appendingPathComponent(try #require(recording)).path).image
        #expect(isNear(frame.pixel(x: frame.width / 2, y: frame.height / 2), 255, 0, 0, tolerance: 8),
                "\(String(frame.pixel(x: frame.width / 2, y: frame.height / 2), radix: 16))")

        // The thumbnail the grid asked for is in the cache in sRGB.
        let root = cache.path + "/thumbnails"
        var entries: [String] = []
        #expect(session.wait {
            entries = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".png") && !$0.hasPrefix("fail") }
            return !entries.isEmpty
        }, "no thumbnail written; stderr: \(viewer.standardError)")
        for entry in entries {
            let thumbnail = try ImageDecoder.decode(path: root + "/" + entry).image
            #expect(isNear(thumbnail.pixel(x: 5, y: 5), 255, 0, 0), "\(entry): \(String(thumbnail.pixel(x: 5, y: 5), radix: 16))")
        }
    }

    private func isNear(_ pixel: UInt32, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 4) -> Bool {
        abs(Int(pixel >> 16 & 0xFF) - r) <= tolerance && abs(Int(pixel >> 8 & 0xFF) - g) <= tolerance
            && abs(Int(pixel & 0xFF) - b) <= tolerance
    }
}
