import Pixels
import Testing
@testable import Imaging

/// TIFFs as scanners, cameras and editors write them: upright, the right size, the right colours.
@Suite struct TIFFDecodingTests {
    @Test(arguments: ["quadrants.tif", "quadrants-16bit-bigendian.tif", "quadrants-cmyk.tif", "quadrants-tiled.tif",
                      "orientation6.tif", "two-pages.tif"])
    func aTIFFIsDecodedUpright(name: String) throws {
        let decoded = try ImageDecoder.decode(path: FixturePaths.fixture(name))
        #expect(decoded.format == .tiff)
        #expect(decoded.fullSize == (64, 48) && decoded.image.width == 64 && decoded.image.height == 48, "\(name)")
        expectQuadrants(decoded.image, quadrants, tolerance: 4)
        #expect(decoded.problem == nil)
    }

    @Test func alphaIsKept() throws {
        let image = try ImageDecoder.decode(path: FixturePaths.fixture("alpha.tif")).image
        #expect(!image.isOpaque)
        expectQuadrants(image, [red, green, blue, RGBA(r: 255, g: 255, b: 255, a: 127)], tolerance: 3)
    }

    @Test func itsICCProfileIsHonoured() throws {
        let shown = try ImageDecoder.decode(path: FixturePaths.fixture("red-prophoto.tif")).image.rgba(x: 10, y: 10)
        #expect(shown.deltaE(red) < 2, "\(shown), ΔE \(shown.deltaE(red))")
    }

    /// Cut in its image data: the rows read before the cut, the rest grey, and said.
    @Test func aTruncatedTIFFShowsWhatWasRead() throws {
        let whole = try [UInt8](contentsOf: FixturePaths.bundled("grace_hopper.jpg"))
        let picture = try ImageDecoder.decode(data: whole).image
        // An uncompressed TIFF of a real photo, in strips of 8 rows, cut at 60 %.
        let tiff = try TIFFWriter.uncompressed(picture, rowsPerStrip: 8)
        let decoded = try ImageDecoder.decode(data: Array(tiff.prefix(tiff.count * 6 / 10)))
        let problem = try #require(decoded.problem)
        #expect(problem.hasPrefix("truncated or damaged TIFF"), "\(problem)")
        #expect(decoded.image.rgba(x: 20, y: 10) == picture.rgba(x: 20, y: 10))
        let last = decoded.image.rgba(x: 20, y: decoded.image.height - 1)
        #expect(last == RGBA(r: 128, g: 128, b: 128), "\(last)")
    }

    @Test func aTIFFWithoutItsDirectoryIsNamed() {
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decode(data: [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0]) }
    }
}

/// A minimal uncompressed RGB TIFF writer, for files cut at a known place.
enum TIFFWriter {
    static func uncompressed(_ image: PixelImage, rowsPerStrip: Int) throws -> [UInt8] {
        let (w, h) = (image.width, image.height)
        var pixels: [UInt8] = []
        for y in 0..<h { for x in 0..<w { let p = image.rgba(x: x, y: y); pixels += [UInt8(p.r), UInt8(p.g), UInt8(p.b)] } }
        let strips = (h + rowsPerStrip - 1) / rowsPerStrip
        let entries = 10
        let ifd = 8, ifdSize = 2 + entries * 12 + 4
        let offsetsAt = ifd + ifdSize, countsAt = offsetsAt + strips * 4, bitsAt = countsAt + strips * 4, dataAt = bitsAt + 6
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) { u16(tag); u16(type); u32(count); if type == 3 && count == 1 { u16(value); u16(0) } else { u32(value) } }
        u32(ifd)
        u16(entries)
        entry(256, 4, 1, w); entry(257, 4, 1, h); entry(258, 3, 3, bitsAt); entry(259, 3, 1, 1); entry(262, 3, 1, 2)
        entry(273, 4, strips, offsetsAt); entry(277, 3, 1, 3); entry(278, 4, 1, rowsPerStrip); entry(279, 4, strips, countsAt)
        entry(284, 3, 1, 1)
        u32(0)
        for s in 0..<strips { u32(dataAt + s * rowsPerStrip * w * 3) }
        for s in 0..<strips { u32(min(rowsPerStrip, h - s * rowsPerStrip) * w * 3) }
        u16(8); u16(8); u16(8)
        return out + pixels
    }
}
