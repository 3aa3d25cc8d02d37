import Foundation
import Glibc
import Recording

/// Writes a finished recording where the user asked, whole or not at all: a file as screenshots
/// are written (`OutputFile`), a folder of PNGs made beside its place under a temporary name and
/// renamed into it when every frame is in.
public enum RecordingFile {
    /// Checked before the run, so a recording that could never be written stops it at once.
    public static func check(_ path: String, format: AnimationFormat) throws {
        do { try format.checkEncoder() } catch { throw RecordingFileError(path: path, reason: error.description) }
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        if !folder.isEmpty, stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            throw RecordingFileError(path: path, reason: errno == ENOENT || info.st_mode & S_IFMT != S_IFDIR ? "no such folder" : OutputFile.reason(errno))
        }
        guard format == .pngFolder, stat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw RecordingFileError(path: path, reason: "it is a file; frames go into a folder (name a .webp, .gif or .mp4 for one file)")
        }
        guard (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) ?? false else {
            throw RecordingFileError(path: path, reason: "the folder is not empty; nothing was written")
        }
    }

    public static func write(_ animation: RecordedAnimation, to path: String) throws {
        do {
            switch animation {
            case .file(let bytes): try OutputFile.write(bytes, to: path)
            case .frames(let frames): try writeFolder(frames, to: path)
            }
        } catch {
            throw RecordingFileError(path: path, reason: error.description)
        }
    }

    /// `frame-00001.png` …, into a new folder, or into an empty one (replaced by the full one).
    private static func writeFolder(_ frames: [[UInt8]], to path: String) throws(OutputFile.Failure) {
        let target = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let parent = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array(((parent.isEmpty ? "." : parent) + "/.\(name).XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OutputFile.Failure(description: OutputFile.reason(errno))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(OutputFile.Failure) {
            for (index, frame) in frames.enumerated() {
                try OutputFile.write(frame, to: temporary + "/" + String(format: "frame-%05d.png", index + 1))
            }
            let mask = umask(0)
            umask(mask)
            chmod(temporary, 0o777 & ~mask)
            // Over an empty folder, or into a new name; a folder filled meanwhile is left alone.
            guard rename(temporary, target) == 0 else {
                throw OutputFile.Failure(description: errno == ENOTEMPTY || errno == EEXIST ? "the folder is not empty; nothing was written" : OutputFile.reason(errno))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}

/// A recording that could not be written.
public struct RecordingFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write the recording \(path): \(reason)" }
}
