import CPNG
import Foundation

/// Files made to crash or exhaust a viewer, each made from the bytes up (or from one fixture): the tests open
/// them headless and in a window, and `make fuzz` opens them through the decoders' sandbox with the corpora.
public enum HostileSet {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the set into `folder` (the fixtures' `progressive.jpg` and `frames.apng` are read from
    /// `fixtures`), and gives the names of those the viewer must refuse in one line each; the rest it shows.
    public static func write(into folder: String, fixtures: String) throws -> (all: [String], refused: [String]) {
        let files: [(String, [UInt8])] = [
            // Its declared size trapped the viewer (SIGILL) as an Int; it is drawn, as a vector, clamped.
            ("huge.svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="1e19" height="10"/>"#.utf8)),
            ("tiny.gif", gif35),
            ("claims.png", pngClaiming(width: 16000, height: 15000)),
            ("scans.jpg", try progressiveJPEG(scans: 10_000, from: fixtures + "/progressive.jpg")),
            ("outside.apng", try apngWithFrameOutsideCanvas(from: fixtures + "/frames.apng")),
        ]
        for (name, bytes) in files {
            guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) else {
                throw Failure(description: "\(folder)/\(name) cannot be written")
            }
        }
        return (files.map(\.0), ["tiny.gif", "claims.png", "scans.jpg", "outside.apng"])
    }

    /// One 32767×32767 frame on a 1×1 screen, in 35 bytes: it once cost 4.2 GB.
    public static let gif35: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0,   // 1×1 screen, 2 colours
        0, 0, 0, 0xFF, 0xFF, 0xFF,                                                        // black, white
        0x2C, 0, 0, 0, 0, 0xFF, 0x7F, 0xFF, 0x7F, 0,                                      // a 32767×32767 image at 0,0
        2, 2, 0x4C, 0x01, 0, 0x3B]                                                        // a few codes, the end

    /// A PNG of a few dozen bytes whose header claims `width`×`height` RGB pixels.
    static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + payload
            return bigEndian(payload.count) + body + bigEndian(Int(checksum(body)))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        // A zlib stream of a few zero bytes (stored block).
        let data: [UInt8] = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", [])
    }

    /// A progressive JPEG whose last scan is repeated until it has `scans` of them.
    static func progressiveJPEG(scans: Int, from path: String) throws -> [UInt8] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard let sos = (0..<(bytes.count - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }),
              let end = (0..<(bytes.count - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }), sos < end else {
            throw Failure(description: "\(path): no scan to repeat")
        }
        let last = Array(bytes[sos..<end])
        return Array(bytes[..<end]) + Array([[UInt8]](repeating: last, count: scans).joined()) + [0xFF, 0xD9]
    }

    /// An APNG with its first frame control made wider and taller (32767) than the canvas.
    static func apngWithFrameOutsideCanvas(from path: String) throws -> [UInt8] {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard let control = (4..<(bytes.count - 34)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("fcTL".utf8) }) else {
            throw Failure(description: "\(path): no frame control")
        }
        for at in [control + 8, control + 12] { bytes.replaceSubrange(at..<(at + 4), with: bigEndian(32767)) }
        let crc = checksum(Array(bytes[control..<(control + 4 + 26)]))
        bytes.replaceSubrange((control + 30)..<(control + 34), with: bigEndian(Int(crc)))
        return bytes
    }

    /// A PNG chunk's checksum (zlib's CRC-32).
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    private static func bigEndian(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
