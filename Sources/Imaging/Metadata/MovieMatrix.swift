/// Turning an MP4 or QuickTime clip for good without touching its pictures, as exiftool's `-Rotation` does: the matrix in
/// its picture track's header (`tkhd`), which players apply as they show it (a phone held upright writes a quarter turn
/// there), is rewritten in place. Every other byte stays as it was.
enum MovieMatrix {
    /// A box: its type, where its payload starts and where it ends (offsets in the file).
    struct Box {
        let type: [UInt8]
        let payload: Int
        let end: Int
    }

    /// The clockwise quarter turns (0…3) the picture track's matrix gives, with where the matrix lies; nil when the file
    /// has no picture track whose header this reads.
    static func turn(in file: [UInt8]) -> (quarters: Int, matrix: Int)? {
        guard let header = pictureTrackHeader(in: file) else { return nil }
        let version = file[header.payload]
        let matrix = header.payload + (version == 1 ? 52 : 40)
        guard matrix + 44 <= header.end else { return nil }
        let (a, b) = (int32(file, matrix), int32(file, matrix + 4))
        guard a != 0 || b != 0 else { return nil }
        // a = cos θ and b = sin θ (θ clockwise, as exiftool and FFmpeg read it).
        let quarters = b == 0 ? (a > 0 ? 0 : 2) : (b > 0 ? 1 : 3)
        return (quarters, matrix)
    }

    /// The file with its picture turned `quarters` clockwise from upright as stored; nil when it has no matrix to write.
    static func setting(quarters: Int, in file: [UInt8]) -> [UInt8]? {
        guard let (_, at) = turn(in: file) else { return nil }
        // The track's size (16.16) follows the matrix: the turned picture is moved back into view by it.
        let (width, height) = (int32(file, at + 36), int32(file, at + 40))
        let one: Int32 = 1 << 16, w: Int32 = 1 << 30
        let matrix: [Int32] = switch (quarters % 4 + 4) % 4 {
        case 1: [0, one, 0, -one, 0, 0, height, 0, w]
        case 2: [-one, 0, 0, 0, -one, 0, width, height, w]
        case 3: [0, -one, 0, one, 0, 0, 0, width, w]
        default: [one, 0, 0, 0, one, 0, 0, 0, w]
        }
        var turned = file
        for (i, value) in matrix.enumerated() {
            let bits = UInt32(bitPattern: value)
            for byte in 0..<4 { turned[at + 4 * i + byte] = UInt8(truncatingIfNeeded: bits >> (24 - 8 * byte)) }
        }
        return turned
    }

    /// The `tkhd` of the first track whose handler is `vide`.
    private static func pictureTrackHeader(in file: [UInt8]) -> Box? {
        guard let movie = boxes(file, 0, file.count).first(where: { $0.type == Array("moov".utf8) }) else { return nil }
        for track in boxes(file, movie.payload, movie.end) where track.type == Array("trak".utf8) {
            let parts = boxes(file, track.payload, track.end)
            guard let header = parts.first(where: { $0.type == Array("tkhd".utf8) }), header.end - header.payload > 4,
                  let media = parts.first(where: { $0.type == Array("mdia".utf8) }),
                  let handler = boxes(file, media.payload, media.end).first(where: { $0.type == Array("hdlr".utf8) }),
                  handler.payload + 12 <= handler.end else { continue }
            if Array(file[(handler.payload + 8)..<(handler.payload + 12)]) == Array("vide".utf8) { return header }
        }
        return nil
    }

    /// The boxes one after another in `start..<end` (32-bit sizes, a 64-bit one after size 1, size 0 to the end).
    static func boxes(_ file: [UInt8], _ start: Int, _ end: Int) -> [Box] {
        var found: [Box] = []
        var at = start
        while at + 8 <= end, found.count < 4096 {
            var size = Int(UInt32(bitPattern: int32(file, at))), payload = at + 8
            if size == 1 {
                guard at + 16 <= end else { break }
                size = file[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                payload = at + 16
            } else if size == 0 {
                size = end - at
            }
            guard size >= payload - at, size <= end - at else { break }
            found.append(Box(type: Array(file[(at + 4)..<(at + 8)]), payload: payload, end: at + size))
            at += size
        }
        return found
    }

    private static func int32(_ file: [UInt8], _ at: Int) -> Int32 {
        Int32(bitPattern: file[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }
}
