import Foundation
import Glibc
import SystemPackage

/// What a photo's first bytes say of it without a pixel decoded: its size in pixels (`PixelSize`), and from
/// its EXIF block when it was taken, with which camera, and how it stands. A HEIC's or AVIF's `Exif` item is
/// read wherever its `meta` box (in those bytes) says it lies, with one more small read.
public struct PhotoFacts: Sendable, Equatable {
    public var date: CaptureDate?
    /// The camera as it names itself, make then model ("Canon EOS R6"; the make once when the model
    /// repeats it, as most do).
    public var camera: String?
    public var orientation: ExifOrientation?
    /// As stored (the orientation may turn it); nil when the format's header is not one this reader knows.
    public var pixelSize: PixelSize?
    /// Apple's ContentIdentifier, which a Live Photo's still (its maker's note) and its movie (a QuickTime key) share.
    public var contentIdentifier: String?

    public init(date: CaptureDate? = nil, camera: String? = nil, orientation: ExifOrientation? = nil, pixelSize: PixelSize? = nil) {
        self.date = date
        self.camera = camera
        self.orientation = orientation
        self.pixelSize = pixelSize
    }

    init(_ tiff: TIFFStructure) {
        date = CaptureDate(tiff)
        orientation = ExifOrientation(tiff: tiff)
        let ifd0 = tiff.directory(0) ?? []
        func text(_ tag: Int) -> String? {
            let value = ifd0.first { $0.tag == tag }.flatMap(tiff.ascii)?
                .trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
            return value?.isEmpty == false ? value : nil
        }
        camera = Self.camera(make: text(0x010F), model: text(0x0110))
        contentIdentifier = tiff.makerNote().flatMap(AppleMakerNote.contentIdentifier(in:))
    }

    /// Make then model, the make once when the model repeats it.
    static func camera(make: String?, model: String?) -> String? {
        if let make, let model, !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make) {
            return make + " " + model
        }
        return model ?? make
    }

    /// The facts of the photo at `path`; nil when it says nothing this reader finds (no size, no EXIF block).
    public static func read(path: FilePath) -> PhotoFacts? {
        FileHead.read(path).flatMap { read(path: path, head: $0) }
    }

    /// The same, its first bytes `head` read already.
    static func read(path: FilePath, head: [UInt8]) -> PhotoFacts? {
        if let format = ImageFormat(sniffing: head), format.capabilities.contains(.clip) {
            return clip(path, matroska: format == .webm || format == .matroska)
        }
        var facts = exif(path, head: head) ?? PhotoFacts()
        facts.pixelSize = PixelSize.stated(in: head[...])
        return facts == PhotoFacts() ? nil : facts
    }

    /// What an MP4 or QuickTime clip's `moov` box says (`QuickTimeMetadata`), or a WebM or Matroska clip's `Info`.
    private static func clip(_ path: FilePath, matroska: Bool) -> PhotoFacts? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        return matroska ? MatroskaMetadata.read(fd: fd, fileSize: size) : QuickTimeMetadata.read(fd: fd, fileSize: size)
    }

    /// What the EXIF block of the photo at `path` (whose first bytes are `head`) says.
    private static func exif(_ path: FilePath, head: [UInt8]) -> PhotoFacts? {
        if let tiff = TIFFStructure(head: head[...]) { return PhotoFacts(tiff) }
        guard case .file(let offset, let length)? = HEIFExifItem.locate(in: head[...]), offset + length > head.count,
              let item = FileHead.read(path, at: offset, length: length), item.count == length,
              let tiff = HEIFExifItem.tiff(inItem: item[...]) else { return nil }
        return PhotoFacts(tiff)
    }
}
