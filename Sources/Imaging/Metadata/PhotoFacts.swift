import Foundation
import Glibc
import SystemPackage

/// What a photo's first bytes say of it without a pixel decoded: its size in pixels (`PixelSize`), whether its
/// frames play, and from its EXIF block when it was taken, with which camera, and how it stands. A HEIC's or AVIF's `Exif` item is
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
    /// The format, when the file's frames play (an animated GIF, PNG or WebP; a clip); nil for a still. Kept as the
    /// format's place in `ImageFormat.all`, one byte (a format is 128): a library's index holds one a photo.
    public var moving: ImageFormat? {
        get { movingPlace == 0 ? nil : ImageFormat.all[Int(movingPlace) - 1] }
        set { movingPlace = newValue.flatMap { ImageFormat.all.firstIndex(of: $0) }.map { UInt8($0 + 1) } ?? 0 }
    }
    private var movingPlace: UInt8 = 0

    public init(date: CaptureDate? = nil, camera: String? = nil, orientation: ExifOrientation? = nil, pixelSize: PixelSize? = nil,
                moving: ImageFormat? = nil) {
        self.date = date
        self.camera = camera
        self.orientation = orientation
        self.pixelSize = pixelSize
        self.moving = moving
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
        let format = ImageFormat(sniffing: head)
        if let format, format.capabilities.contains(.clip) {
            var facts = clip(path, matroska: format == .webm || format == .matroska) ?? PhotoFacts()
            facts.moving = format
            return facts
        }
        var facts = exif(path, head: head) ?? PhotoFacts()
        facts.pixelSize = PixelSize.stated(in: head[...])
        if let format, format.animation != nil {
            facts.moving = AnimationProbe.animatedFormat(head: head[...], format: format)
            // A GIF whose first frame outruns the head is read as far as the probe reads.
            if facts.moving == nil, format == .gif, head.count == FileHead.length { facts.moving = AnimationProbe.animatedFormat(path) }
        }
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
