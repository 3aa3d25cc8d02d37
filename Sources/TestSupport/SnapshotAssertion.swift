import Foundation
import Imaging
import Pixels
import Testing

/// Compares a rendered image with the baseline `Snapshots/<name>.png` beside the calling test file.
///
/// Each channel may differ by `channelTolerance` (8-bit rounding, antialiasing), and at most
/// `pixelFraction` of the pixels may differ by more. On failure `<name>-actual.png` and
/// `<name>-diff.png` (differing pixels in red over a faded copy) are written beside the baseline.
/// `RECORD_SNAPSHOTS=1` writes new baselines instead of comparing.
public func assertSnapshot(_ image: PixelImage, named name: String, channelTolerance: Int = 3,
                           pixelFraction: Double = 0.0001, testFile: String = #filePath,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let baseline = folder.appendingPathComponent("\(name).png")
    let actualURL = folder.appendingPathComponent("\(name)-actual.png")
    let diffURL = folder.appendingPathComponent("\(name)-diff.png")

    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try Data(image.pngData()).write(to: baseline)
        Issue.record("recorded \(baseline.lastPathComponent); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
        return
    }
    guard FileManager.default.fileExists(atPath: baseline.path) else {
        try Data(image.pngData()).write(to: actualURL)
        Issue.record("no baseline \(baseline.lastPathComponent); wrote \(actualURL.lastPathComponent). Record with RECORD_SNAPSHOTS=1",
                     sourceLocation: sourceLocation)
        return
    }
    let expected = try ImageDecoder.decode(path: baseline.path).image
    guard expected.width == image.width, expected.height == image.height else {
        try Data(image.pngData()).write(to: actualURL)
        Issue.record("\(name): size \(image.width)x\(image.height), baseline \(expected.width)x\(expected.height)",
                     sourceLocation: sourceLocation)
        return
    }
    let comparison = PixelComparison(image, expected, channelTolerance: channelTolerance)
    if Double(comparison.differing) > pixelFraction * Double(image.pixelCount) {
        try Data(image.pngData()).write(to: actualURL)
        try Data(comparison.diffImage.pngData()).write(to: diffURL)
        let message = "\(name): \(comparison.differing) of \(image.pixelCount) pixels differ by more than "
            + "\(channelTolerance) (largest difference \(comparison.largest)); "
            + "see \(actualURL.lastPathComponent) and \(diffURL.lastPathComponent)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    } else {
        try? FileManager.default.removeItem(at: actualURL)
        try? FileManager.default.removeItem(at: diffURL)
    }
}

/// Channel-by-channel comparison of two images of one size.
public struct PixelComparison {
    public let differing: Int
    public let largest: Int
    public let diffImage: PixelImage

    public init(_ a: PixelImage, _ b: PixelImage, channelTolerance: Int) {
        let diff = PixelImage(width: a.width, height: a.height)
        var differing = 0, largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                var worst = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
                largest = max(largest, worst)
                if worst > channelTolerance {
                    differing += 1
                    diff.setPixel(x: x, y: y, 0xFFFF_0000)
                } else {
                    // A faded grey copy of the expected image, for orientation.
                    let grey = UInt32(((q >> 16 & 0xFF) + (q >> 8 & 0xFF) + (q & 0xFF)) / 3 / 3 + 170)
                    diff.setPixel(x: x, y: y, 0xFF00_0000 | grey << 16 | grey << 8 | grey)
                }
            }
        }
        self.differing = differing
        self.largest = largest
        diffImage = diff
    }
}
