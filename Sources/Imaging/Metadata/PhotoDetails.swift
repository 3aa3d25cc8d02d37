import Foundation
import Glibc
import SystemPackage

/// What the info panel tells of a photo, read from its first bytes (no pixel decoded): the facts the
/// library keeps (`PhotoFacts`: date, camera, orientation, pixel size) and the rest of its EXIF block
/// (lens, exposure, where it was taken), its format, its size on disk and its colour profile's name.
public struct PhotoDetails: Sendable, Equatable {
    /// Where on Earth, in degrees (north and east positive), and metres above the sea.
    public struct Coordinates: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?
    }

    public var facts = PhotoFacts()
    public var lens: String?
    public var fNumber: Double?
    /// Seconds.
    public var exposureTime: Double?
    public var iso: Int?
    /// Millimetres, and its 35 mm film equivalent.
    public var focalLength: Double?
    public var focalLength35: Int?
    public var location: Coordinates?
    /// "JPEG", "HEIC"… (by content).
    public var format: String?
    /// Bytes.
    public var fileSize: Int64?
    /// The embedded ICC profile's description ("Display P3").
    public var colourProfile: String?

    public init() {}

    /// The details of the photo at `path` (whatever can be read of them).
    public static func read(path: FilePath) -> PhotoDetails {
        var details = PhotoDetails()
        if let head = FileHead.read(path) {
            details = PhotoDetails(head: head)
            // A HEIC's EXIF item may lie past the first bytes: the facts read it where it is.
            if let facts = PhotoFacts.read(path: path, head: head) { details.facts = facts }
        }
        var info = stat()
        if path.withPlatformString({ stat($0, &info) }) == 0 { details.fileSize = Int64(info.st_size) }
        if [ImageFormat.mp4.name, ImageFormat.quickTime.name].contains(details.format) {
            details.location = QuickTimeMetadata.location(path: path)
        }
        return details
    }

    /// What a file's first bytes (`head`) say: its format, its EXIF block, its colour profile's name.
    public init(head: [UInt8]) {
        format = ImageFormat(sniffing: head).map(\.name)
        if let tiff = TIFFStructure(head: head[...]) {
            facts = PhotoFacts(tiff)
            facts.pixelSize = PixelSize.stated(in: head[...])
            readExif(tiff)
        }
        let profile = ICCProfile.inJPEG(head) ?? ICCProfile.inWebP(head) ?? {
            if case .icc(let bytes) = PNGDecoder.colour(head) { return bytes } else { return nil }
        }()
        colourProfile = profile.flatMap(PhotoDetails.profileName)
    }

    /// An ICC profile's description ("Display P3"), if it holds one.
    public static func profileName(icc profile: [UInt8]) -> String? { ICCProfile.description(of: profile) }

    /// The lens and exposure (the EXIF IFD), and the GPS IFD's position.
    mutating func readExif(_ tiff: TIFFStructure) {
        let exif = tiff.exifDirectory() ?? []
        func entry(_ tag: Int, in directory: [TIFFStructure.Entry]) -> TIFFStructure.Entry? { directory.first { $0.tag == tag } }
        func rational(_ tag: Int) -> Double? { entry(tag, in: exif).flatMap(tiff.rationals)?.first.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
        fNumber = rational(0x829D)
        exposureTime = rational(0x829A)
        focalLength = rational(0x920A)
        iso = entry(0x8827, in: exif).flatMap(tiff.integer).flatMap { $0 > 0 ? $0 : nil }
        focalLength35 = entry(0xA405, in: exif).flatMap(tiff.integer).flatMap { $0 > 0 ? $0 : nil }
        lens = entry(0xA434, in: exif).flatMap(tiff.ascii)?.trimmingCharacters(in: .whitespaces.union(.controlCharacters)).nilIfEmpty

        let gps = tiff.gpsDirectory() ?? []
        func degrees(_ value: Int, _ reference: Int, negative: String) -> Double? {
            guard let parts = entry(value, in: gps).flatMap(tiff.rationals), parts.count == 3 else { return nil }
            let degrees = parts[0] + parts[1] / 60 + parts[2] / 3600
            let sign = entry(reference, in: gps).flatMap(tiff.ascii)?.uppercased() == negative ? -1.0 : 1
            return degrees.isFinite ? sign * degrees : nil
        }
        if let latitude = degrees(2, 1, negative: "S"), let longitude = degrees(4, 3, negative: "W"),
           abs(latitude) <= 90, abs(longitude) <= 180 {
            var altitude = entry(6, in: gps).flatMap(tiff.rationals)?.first
            if entry(5, in: gps).flatMap(tiff.integer) == 1 { altitude = altitude.map { -$0 } }   // below the sea
            location = Coordinates(latitude: latitude, longitude: longitude, altitude: altitude)
        }
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
