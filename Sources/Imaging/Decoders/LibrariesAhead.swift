import CAV
import CHEIF
import CJXL
import CRSVG

/// The codec libraries this viewer opens on first use (libheif with FFmpeg's HEVC decoder, libjxl, librsvg, FFmpeg), opened now and run
/// once on a picture of nothing: a decoder process does this before it confines itself, since once
/// confined it can open no file, a library's own included.
public enum LibrariesAhead {
    /// The libraries opened on demand, by the names the format table gives them (`ImageFormat.library`).
    public static let all = Set(ImageFormat.all.filter(\.opensLibraryOnDemand).map(\.library))

    /// Opens `libraries` (of `all`); returns those that could not be opened, in words (each format then fails with its
    /// reason).
    public static func open(_ libraries: Set<String> = all) -> [String] {
        var reason: UnsafePointer<CChar>?
        var missing: [String] = []
        if libraries.contains("libheif") {
            if photozoom_heif_load(&reason) == nil { missing.append(reason.map { String(cString: $0) } ?? "libheif") }
            _ = photozoom_heif_use_ffmpeg()   // libavcodec, for HEVC, when it is there
        }
        if libraries.contains("libjxl"), photozoom_jxl_load(&reason) == nil || photozoom_jxl_threads_load(&reason) == nil {
            missing.append(reason.map { String(cString: $0) } ?? "libjxl")
        }
        if libraries.contains("FFmpeg"), photozoom_av_load(&reason) == nil { missing.append(reason.map { String(cString: $0) } ?? "FFmpeg") }
        guard libraries.contains("librsvg") else { return missing }
        if photozoom_rsvg_load(&reason) == nil { missing.append(reason.map { String(cString: $0) } ?? "librsvg") }
        // GLib's types, librsvg's first document and fontconfig's configuration and caches (the text) are set up on
        // first use, reading files of their own.
        let warmUp = #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><text y="12" font-size="12">a</text></svg>"#
        _ = try? ImageDecoder.decodeHere(data: Array(warmUp.utf8))
        return missing
    }
}
