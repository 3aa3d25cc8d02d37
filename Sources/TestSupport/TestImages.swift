import Foundation
import Imaging
import Pixels

/// Pictures for the rendering tests: the decoding fixtures and the bundled photos.
public enum TestImages {
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    public static let bundledFolder = repository.appendingPathComponent("Images").path

    public static func fixture(_ name: String) throws -> PixelImage {
        try ImageDecoder.decode(path: repository.appendingPathComponent("Tests/ImagingTests/Fixtures/\(name)").path).image
    }

    /// A solid opaque image.
    public static func solid(width: Int, height: Int, argb: UInt32) -> PixelImage {
        let image = PixelImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.setPixel(x: x, y: y, argb) } }
        return image
    }
}
