import Foundation

/// Where a movie lies inside another file: a Motion Photo's MP4, appended to its JPEG.
public struct EmbeddedMovie: Sendable, Equatable, Hashable, Codable {
    /// From the file's start, bytes.
    public let offset: Int64
    public let length: Int64

    public init(offset: Int64, length: Int64) { (self.offset, self.length) = (offset, length) }
}

/// A Google or Samsung Motion Photo: a JPEG with an MP4 appended, whose XMP says where. Two forms:
/// - the Camera form (Motion Photo format 1.0): `Camera:MotionPhoto="1"` and a `Container:Directory` whose items
///   after the primary picture lie at the file's end in order, each `Item:Length` bytes; the movie is the one whose
///   `Item:Semantic` is `MotionPhoto`;
/// - the older GCamera form: `GCamera:MicroVideo="1"` and `GCamera:MicroVideoOffset`, the movie's length counted back
///   from the end.
public enum MotionPhoto {
    /// The movie a JPEG's bytes hold at their end, as its XMP says, if the bytes there begin an MP4 (`ftyp`).
    public static func movie(in jpeg: [UInt8]) -> EmbeddedMovie? {
        guard let xmp = xmpPacket(in: jpeg), let movie = movie(inXMP: xmp, fileSize: Int64(jpeg.count)) else { return nil }
        let box = Int(movie.offset) + 4
        guard box + 4 <= jpeg.count, Array(jpeg[box..<box + 4]) == Array("ftyp".utf8) else { return nil }
        return movie
    }

    /// The movie's place in a file of `fileSize` bytes whose XMP packet is `xmp`; nil when it says of none, or of one
    /// that cannot fit.
    public static func movie(inXMP xmp: String, fileSize: Int64) -> EmbeddedMovie? {
        if let length = microVideoLength(xmp) ?? directoryLength(xmp), length > 8, length < fileSize {
            return EmbeddedMovie(offset: fileSize - length, length: length)
        }
        return nil
    }

    /// The GCamera form's: the movie's length (its offset from the end).
    private static func microVideoLength(_ xmp: String) -> Int64? {
        guard value(of: "GCamera:MicroVideo", in: xmp) == "1" else { return nil }
        return value(of: "GCamera:MicroVideoOffset", in: xmp).flatMap { Int64($0) }
    }

    /// The Camera form's: the bytes from the movie's start to the end (its item's length, and those after it).
    private static func directoryLength(_ xmp: String) -> Int64? {
        guard value(of: "Camera:MotionPhoto", in: xmp) == "1" || value(of: "GCamera:MotionPhoto", in: xmp) == "1" else { return nil }
        let items = xmp.components(separatedBy: "Container:Item").dropFirst()
        guard let movie = items.firstIndex(where: { value(of: "Item:Semantic", in: $0) == "MotionPhoto" }) else { return nil }
        var length: Int64 = 0
        for item in items[movie...] {
            guard let bytes = value(of: "Item:Length", in: item).flatMap({ Int64($0) }) else { return nil }
            length += bytes + (value(of: "Item:Padding", in: item).flatMap { Int64($0) } ?? 0)
        }
        return length
    }

    /// An XMP property's value, as an attribute (`name="v"`) or an element (`<name>v</name>`).
    static func value(of name: String, in xmp: String) -> String? {
        if let range = xmp.range(of: name + "=\"") {
            return String(xmp[range.upperBound...].prefix { $0 != "\"" })
        }
        if let range = xmp.range(of: "<" + name + ">") {
            return String(xmp[range.upperBound...].prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The JPEG's XMP packet (its APP1 segment named by Adobe's namespace), from the markers before the picture.
    static func xmpPacket(in jpeg: [UInt8]) -> String? {
        let name = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            // The picture's data begins (start of scan), or the end: no XMP after.
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2, at + 2 + length <= jpeg.count else { return nil }
            let body = at + 4, end = at + 2 + length
            if marker == 0xE1, end - body > name.count, Array(jpeg[body..<body + name.count]) == name {
                return String(decoding: jpeg[(body + name.count)..<end], as: UTF8.self)
            }
            at = end
        }
        return nil
    }
}
