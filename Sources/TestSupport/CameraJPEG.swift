import Imaging
import Pixels

/// JPEG files as cameras write them: an EXIF block with an orientation and a thumbnail in IFD1.
public enum CameraJPEG {
    /// The bytes of `photo` with `thumbnail` embedded (nil: none) and `orientation` in IFD0.
    public static func bytes(photo: PixelImage, thumbnail: PixelImage?, orientation: ExifOrientation = .up) -> [UInt8] {
        let exif = ExifBlock(orientation: orientation, thumbnailJPEG: thumbnail.flatMap { JPEGEncoder.encode($0, quality: 90) })
        return JPEGEncoder.encode(photo, quality: 90, exif: exif)!
    }

    /// A picture in four flat colours, top-left, top-right, bottom-left, bottom-right (ARGB),
    /// inside black bars of `bar` px above and below (as a camera pads a wide photo's thumbnail).
    public static func quadrants(width: Int, height: Int, bar: Int = 0,
                                 colors: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF]) -> PixelImage {
        let image = PixelImage(width: width, height: height)
        let inner = height - 2 * bar
        for y in 0..<height {
            for x in 0..<width {
                let inside = y >= bar && y < height - bar
                let quadrant = (y - bar < inner / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                image.setPixel(x: x, y: y, inside ? colors[quadrant] : 0xFF00_0000)
            }
        }
        return image
    }
}
