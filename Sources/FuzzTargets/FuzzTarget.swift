import Imaging
import Pixels
import Scripting

/// What `make fuzz` runs: the readers of untrusted bytes, each given whatever the fuzzer makes.
/// A target passes when it returns, whatever it returns; a crash, a trap or a sanitizer report is
/// a finding. The harness (`photozoom-fuzz`) and the tests that replay its findings both run them here.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A whole file as the viewer decodes it (format sniffed, orientation and colour read), at full
    /// size and reduced as a grid cell asks for it; a file whose frames play, its first 50 frames
    /// too; its date taken, as the timeline reads it from the first bytes (a HEIC's `meta` box); and
    /// its orientation rewritten as Ctrl+R writes it.
    /// They differ only in their seeds (the fixtures of each format).
    case jpeg, png, webp, gif, apng, heif, tiff, jxl, svg, raw
    /// An ICC profile, as a file embeds it: opened by lcms2 and a picture converted through it, and its
    /// description read.
    case icc
    /// The EXIF block: the input is a TIFF structure, put in a JPEG's APP1 segment as a camera
    /// writes it, then read for its orientation, its IFD1 thumbnail, its date taken and the info
    /// panel's details (lens, exposure, GPS).
    case exif
    /// The boxes of a HEIF file after its `ftyp` (the input follows a real one), as the viewer itself reads
    /// them from a file's first bytes: the primary image's stated size, where its EXIF item is and what it says,
    /// the date taken and the info panel's details.
    case boxes
    /// A PNG's chunks after its signature, as the viewer itself reads them: the stated size (`IHDR`), the colour
    /// (`iCCP` inflated, `cHRM`, `gAMA`, `sRGB`), the `eXIf` orientation read and rewritten, the date taken.
    case chunks
    /// A `--script` file: parsed, then laid out on the frame clock.
    case script

    /// The target a kept finding was found by: its file name starts with the target's name
    /// (`scripts/fuzz` has libFuzzer write `jpeg-crash-…`).
    public init?(finding name: String) {
        guard let target = FuzzTarget.allCases.first(where: { name.hasPrefix($0.rawValue + "-") }) else { return nil }
        self = target
    }

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .jpeg, .png, .webp, .gif, .apng, .heif, .tiff, .jxl, .svg, .raw:
            _ = try? ImageDecoder.decode(data: bytes)
            _ = try? ImageDecoder.decode(data: bytes, atLeast: (64, 64))
            _ = CaptureDate(head: bytes[...])
            _ = PixelSize.stated(in: bytes[...])
            _ = OrientationWriter.setting(.right, in: bytes)
            if let animation = try? AnimatedImage.open(data: bytes) {
                for _ in 0..<50 { guard (try? animation.nextFrame(covering: (64, 64))) != nil else { break } }
            }
        case .icc:
            let picture = PixelImage(width: 16, height: 16, isOpaque: true)
            ColourTarget.sRGB.convert(picture, from: .icc(bytes))
            _ = PhotoDetails.profileName(icc: bytes)
        case .exif:
            let segment = Array("Exif".utf8) + [0, 0] + bytes.prefix(65_000)
            let length = segment.count + 2
            let jpeg = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + segment + [0xFF, 0xD9]
            _ = ExifOrientation(jpeg: jpeg)
            _ = EmbeddedThumbnail.read(jpegHead: jpeg[...])
            _ = CaptureDate(head: jpeg[...])
            _ = PhotoDetails(head: jpeg)
            _ = OrientationWriter.setting(.left, in: jpeg)
        case .boxes:
            let fileType = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
            readInTheViewer(fileType + bytes.prefix(65_000))
        case .chunks:
            readInTheViewer([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes.prefix(65_000))
        case .script:
            guard let commands = try? ScriptParser.parse(String(decoding: bytes, as: UTF8.self)) else { return }
            _ = ScriptTimeline(commands.map(\.command), frameInterval: 1.0 / 60)
        }
    }

    /// What the viewer's own process reads of a file's first bytes (no decoder of the sandbox involved).
    private func readInTheViewer(_ head: [UInt8]) {
        _ = PixelSize.stated(in: head[...])
        _ = CaptureDate(head: head[...])
        _ = PhotoDetails(head: head)
        _ = ExifOrientation(png: head)
        _ = OrientationWriter.current(in: head)
        _ = OrientationWriter.setting(.right, in: head)
    }
}
