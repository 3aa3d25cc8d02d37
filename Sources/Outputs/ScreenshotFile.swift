import Cairo
import Imaging
import Foundation
import Pixels

/// Writing screenshots without ever replacing a file the user already has.
public enum ScreenshotFile {
    /// `photozoom-<yyyyMMdd>-<HHmmss>.png` (or another extension: a recording's) in `folder`, with
    /// `-2`, `-3` … added if that name is taken.
    public static func freshName(in folder: String, extension ext: String = "png", now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "photozoom-\(formatter.string(from: now))"
        var candidate = (folder as NSString).appendingPathComponent("\(stem).\(ext)")
        var n = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = (folder as NSString).appendingPathComponent("\(stem)-\(n).\(ext)")
            n += 1
        }
        return candidate
    }

    /// Writes `image` as PNG to `path` (whole or not at all; a device or a pipe is written through).
    public static func write(_ image: PixelImage, to path: String) throws {
        do {
            try write(Data(image.pngData()), to: path)
        } catch let error as CairoError {
            throw ScreenshotError(path: path, reason: error.description)
        }
    }

    /// Writes a scene tree's JSON (a script's `dump`).
    public static func writeDump(_ json: Data, to path: String) throws {
        try write(json, to: path)
    }

    private static func write(_ data: Data, to path: String) throws {
        do {
            try OutputFile.write([UInt8](data), to: path)
        } catch {
            throw ScreenshotError(path: path, reason: error.description)
        }
    }
}

/// A screenshot or scene dump that could not be written.
public struct ScreenshotError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path.hasSuffix(".json") ? "the scene dump" : "the screenshot") \(path): \(reason)" }
}
