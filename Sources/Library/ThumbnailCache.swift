import Cairo
import Crypto
import Foundation
import Glibc
import Imaging
import Logging
import Pixels
import SystemPackage
import Threads

/// The freedesktop.org Thumbnail Managing Standard: thumbnails shared with file managers and other
/// viewers under `$XDG_CACHE_HOME/thumbnails` (by default `~/.cache/thumbnails`).
///
/// An entry is `SIZE/MD5(uri).png`, and is valid only while its `Thumb::URI` and `Thumb::MTime` match
/// the file. Missing entries are written (to a temporary file, then renamed; files 0600, folders
/// 0700) with the text chunks the standard names; files whose content fails to decode are recorded
/// under `fail/photozoom-VERSION/` (with the reason), and not decoded again while they are unchanged. A cache that can't be read or written, or holds broken or foreign
/// PNGs, is passed over with one debug line a kind: the photo is then decoded as without a cache.
public struct ThumbnailCache: Sendable {
    /// The standard's sizes: the largest side of a thumbnail in each folder, px.
    public enum Size: Int, CaseIterable, Sendable {
        case normal = 128, large = 256, xLarge = 512, xxLarge = 1024

        var folder: String {
            switch self {
            case .normal: "normal"
            case .large: "large"
            case .xLarge: "x-large"
            case .xxLarge: "xx-large"
            }
        }

        /// The smallest size whose thumbnails are at least `side` px (the largest, past it).
        public static func covering(_ side: Int) -> Size { allCases.first { $0.rawValue >= side } ?? .xxLarge }
    }

    /// Cached files larger than this are not thumbnails; they are not read.
    static let maxEntryBytes = 16 << 20

    public let root: String
    /// The space the thumbnails it gives are in (the display's).
    public let colour: ColourTarget
    private let logger: Logger
    private let reported = Problems()

    public init(root: String, colour: ColourTarget = .sRGB, logger: Logger = Logger(label: "photozoom")) {
        self.root = root
        self.colour = colour
        self.logger = logger
    }

    /// The same cache, giving its thumbnails in `colour`'s space.
    public func shown(in colour: ColourTarget) -> ThumbnailCache { ThumbnailCache(root: root, colour: colour, logger: logger) }

    /// `$XDG_CACHE_HOME/thumbnails`, else `$HOME/.cache/thumbnails`; nil with neither set.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/thumbnails" }
        return environment["HOME"].map { $0 + "/.cache/thumbnails" }
    }

    /// The file's URI as the standard hashes it (a file: URI, its path escaped as GLib escapes it).
    public static func uri(ofPath path: FilePath) -> String {
        // Kept as they are: letters, digits and !$&'()*+,-./:=@_~; every other byte is %XX (so a
        // name that is not UTF-8 has the URI GLib gives it).
        let kept = Set(Array("!$&'()*+,-./:=@_~".utf8))
        var uri = "file://"
        for byte in path.bytes {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            uri += isAlphanumeric || kept.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return uri
    }

    /// The entry's name: the MD5 of the URI, in lower-case hex, and `.png`.
    public static func entryName(forURI uri: String) -> String {
        Insecure.MD5.hash(data: Array(uri.utf8)).map { String(format: "%02x", $0) }.joined() + ".png"
    }

    /// Photo `path` as a thumbnail covering `side`×`side` px: from the cache when it holds a valid
    /// entry large enough, else decoded from the file (and the entry written).
    public func thumbnail(path: FilePath, covering side: Int) throws(ImageDecodeError) -> DecodedImage {
        if let cached = lookup(path: path, covering: side) { return cached }
        return try make(path: path, covering: side)
    }

    /// The valid entry for photo `path` that covers `side`×`side` px (as it is, up to the entry's
    /// size); nil when the cache has none.
    public func lookup(path: FilePath, covering side: Int) -> DecodedImage? {
        guard let (file, name) = entry(for: path) else { return nil }
        for candidate in Size.allCases where candidate.rawValue >= Size.covering(side).rawValue {
            if let cached = read(root + "/" + candidate.folder + "/" + name, for: file, covering: side) { return cached }
        }
        return nil
    }

    /// Photo `path` decoded from the file as a thumbnail covering `side`×`side` px, and its entry
    /// written. Failures are the decoder's, as without a cache (and recorded under `fail/`).
    public func make(path: FilePath, covering side: Int) throws(ImageDecodeError) -> DecodedImage {
        guard let (file, name) = entry(for: path) else { return try ImageDecoder.decode(file: path, atLeast: (side, side), colour: colour) }
        let decoded: DecodedImage
        do throws(ImageDecodeError) {
            // As small as covers the cell: a phone's HEIC gives its 320x240 thumbnail item for a 180 px
            // cell, where a 256 px square would need the whole 12 MP picture.
            decoded = try ImageDecoder.decode(file: path, atLeast: (side, side))
        } catch {
            if error.isLasting { recordFailure(of: file, named: name, reason: error.description) }
            throw error
        }
        // The standard's thumbnail fits in N×N: a wide photo goes in the size whose thumbnail still
        // covers the square cell (x-large for a 16:9 photo in a 180 px cell). One too wide for any
        // (a panorama) is not written.
        // Written in sRGB; shown in the target's colours.
        let (long, short) = (max(decoded.image.width, decoded.image.height), min(decoded.image.width, decoded.image.height))
        let target = Size.covering((side * long + short - 1) / short)
        let fit = min(1, Double(target.rawValue) / Double(long))
        let thumb: PixelImage
        do throws(CairoError) {
            thumb = try decoded.image.scaled(toWidth: max(1, Int((Double(decoded.image.width) * fit).rounded())),
                                             height: max(1, Int((Double(decoded.image.height) * fit).rounded())))
        } catch {
            throw .drawing(error)
        }
        // A picture from a damaged file is shown, not kept: the file may yet be completed.
        guard decoded.problem == nil, min(thumb.width, thumb.height) >= min(side, decoded.fullSize.width, decoded.fullSize.height),
              !file.path.starts(with: FilePath(root)),
              let png = write(thumb, of: file, fullSize: decoded.fullSize, length: decoded.clip?.duration, motion: decoded.motion,
                              to: target.folder, named: name),
              let stored = try? ImageDecoder.decode(data: png, colour: colour) else {
            let shown = try ImageDecoder.shrink(decoded.image, toCover: (side, side))
            colour.convert(shown, from: .sRGB)
            var made = DecodedImage(image: shown, fullSize: decoded.fullSize, format: decoded.format, problem: decoded.problem,
                                    isAnimated: decoded.isAnimated, clip: decoded.clip)
            made.motion = decoded.motion
            return made
        }
        // Shown as the next launch will read it back: a first and a second run show the same pixels.
        var made = DecodedImage(image: stored.image, fullSize: decoded.fullSize, format: decoded.format, isAnimated: decoded.isAnimated,
                                clip: decoded.clip.map { Self.recorded(length: $0.duration, width: $0.width, height: $0.height) })
        made.motion = decoded.motion
        return made
    }

    /// What the standard records of a photo file.
    private struct File {
        /// Absolute.
        let path: FilePath
        let uri: String
        let mtime: Int
        let size: Int
    }

    /// The record of the regular file at `path`, and its entry's name.
    private func entry(for path: FilePath) -> (File, String)? {
        let absolute = path.isAbsolute ? path : FilePath(FileManager.default.currentDirectoryPath).pushing(path)
        var info = stat()
        guard absolute.withPlatformString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let uri = Self.uri(ofPath: absolute)
        return (File(path: absolute, uri: uri, mtime: Int(info.st_mtim.tv_sec), size: Int(info.st_size)), Self.entryName(forURI: uri))
    }

    /// A valid entry at `entry` that covers `side` (or holds the whole photo).
    private func read(_ entry: String, for file: File, covering side: Int) -> DecodedImage? {
        guard let bytes = readFile(entry) else { return nil }
        let text = PNGText.read(bytes)
        guard text["Thumb::URI"] == file.uri, text["Thumb::MTime"].flatMap(Int.init) == file.mtime else {
            if !text.isEmpty, text["Thumb::URI"] == nil { note("not a thumbnail by the standard: \(entry)") }
            return nil   // stale (the photo changed) or another file's: written anew
        }
        if let recorded = text["Thumb::Size"].flatMap(Int.init), recorded != file.size { return nil }
        guard let decoded = try? ImageDecoder.decode(data: bytes, colour: colour) else {
            note("a damaged thumbnail in the cache: \(entry)")
            return nil
        }
        let full = (width: text["Thumb::Image::Width"].flatMap(Int.init) ?? decoded.fullSize.width,
                    height: text["Thumb::Image::Height"].flatMap(Int.init) ?? decoded.fullSize.height)
        let image = decoded.image
        guard min(image.width, image.height) >= min(side, full.width, full.height) else { return nil }
        // As it is: the cell draws it scaled anyway, and a filter pass here would cost the warm grid its speed.
        let clip = text["Thumb::Movie::Length"].flatMap(Double.init).map { Self.recorded(length: $0, width: full.width, height: full.height) }
        var found = DecodedImage(image: image, fullSize: full, format: decoded.format, clip: clip)
        found.motion = text[Self.motionKey].flatMap(Self.movie(recorded:))
        return found
    }

    /// A Motion Photo's movie, where it lies in the file ("offset length"): a key of this program's own, as the standard
    /// allows (`X-` keys).
    static let motionKey = "Thumb::X-PhotoZoom::Motion"

    private static func movie(recorded text: String) -> EmbeddedMovie? {
        let parts = text.split(separator: " ").compactMap { Int64($0) }
        return parts.count == 2 ? EmbeddedMovie(offset: parts[0], length: parts[1]) : nil
    }

    /// A clip's facts as an entry records them: its length (the standard's whole seconds) and size.
    private static func recorded(length: Double, width: Int, height: Int) -> ClipFacts {
        ClipFacts(duration: length.rounded(), frameRate: 0, codec: "", hasSound: false, width: width, height: height)
    }

    /// The bytes of a regular file, up to `maxEntryBytes`; nil for anything else.
    private func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= Self.maxEntryBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return count == bytes.count ? bytes : nil
    }

    /// Writes the entry; returns its PNG bytes (nil when libpng refused; a cache that can't be written
    /// still gives them).
    private func write(_ thumb: PixelImage, of file: File, fullSize: (width: Int, height: Int), length: Double?, motion: EmbeddedMovie?,
                       to folder: String, named name: String) -> [UInt8]? {
        var pairs: [(String, String)] = [("Thumb::URI", file.uri), ("Thumb::MTime", String(file.mtime)), ("Thumb::Size", String(file.size)),
                                         ("Thumb::Image::Width", String(fullSize.width)), ("Thumb::Image::Height", String(fullSize.height))]
        if let length { pairs.append(("Thumb::Movie::Length", String(Int(length.rounded())))) }
        if let motion { pairs.append((Self.motionKey, "\(motion.offset) \(motion.length)")) }
        let text = (pairs
                    + [("Software", "PhotoZoomAnimator \(Version.string)")]).map { (key: $0.0, value: $0.1) }
        guard let png = PNGWriter.encode(thumb, text: text) else {
            note("libpng could not encode a thumbnail")
            return nil
        }
        store(png, in: root + "/" + folder, named: name)
        return png
    }

    /// Where this version records the photos it could not decode.
    private var failures: String { root + "/fail/photozoom-\(Version.string)" }
    /// The text key that keeps the reason in a failure's entry.
    static let reasonKey = "PhotoZoomAnimator::Reason"

    /// A failed photo's entry: a 1×1 PNG with its URI and time, as the standard's `fail` folder holds,
    /// and why it failed.
    private func recordFailure(of file: File, named name: String, reason: String) {
        let text = [(key: "Thumb::URI", value: file.uri), (key: "Thumb::MTime", value: String(file.mtime)),
                    (key: "Software", value: "PhotoZoomAnimator \(Version.string)"), (key: Self.reasonKey, value: reason)]
        guard let png = PNGWriter.encode(PixelImage(width: 1, height: 1), text: text) else { return }
        store(png, in: failures, named: name)
    }

    /// Why photo `path` failed when this version last tried it, if it is unchanged since: it is not
    /// decoded again at every launch.
    public func recordedFailure(path: FilePath) -> ImageDecodeError? {
        guard let (file, name) = entry(for: path), let bytes = readFile(failures + "/" + name) else { return nil }
        let text = PNGText.read(bytes)
        guard text["Thumb::URI"] == file.uri, text["Thumb::MTime"].flatMap(Int.init) == file.mtime else { return nil }
        return .failedBefore(text[Self.reasonKey] ?? "it could not be decoded")
    }

    /// Writes `bytes` to a temporary file in `folder` (made 0700 as needed) and renames it to `name`, 0600.
    private func store(_ bytes: [UInt8], in folder: String, named name: String) {
        guard makeFolders(folder) else { return note("cannot make the thumbnail folder \(folder): \(String(cString: strerror(errno)))") }
        do {
            try AtomicFile.write(folder + "/" + name, permissions: 0o600, bytes: bytes)
        } catch {
            note("cannot write a thumbnail in \(folder): \(error)")
        }
    }

    private func makeFolders(_ folder: String) -> Bool {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    /// One debug line for each kind of problem (a full disk must not log a line a photo).
    private func note(_ problem: String) {
        let kind = String(problem.prefix { $0 != ":" })
        if reported.first(kind) { logger.debug("thumbnail cache: \(problem)") }
    }

    private final class Problems: Sendable {
        private let kinds = Locked<Set<String>>([])
        func first(_ kind: String) -> Bool { kinds.withLock { $0.insert(kind).inserted } }
    }
}
