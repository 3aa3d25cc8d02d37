import Pixels

/// What `--record PATH` writes, from the path's extension; anything else (no extension, or a
/// trailing `/`) is a folder of numbered PNGs.
public enum AnimationFormat: String, Sendable, CaseIterable {
    case webp, gif, mp4, pngFolder

    public init(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        switch (path.hasSuffix("/") ? "" : name.split(separator: ".", omittingEmptySubsequences: false).dropFirst().last)?.lowercased() {
        case "webp"?: self = .webp
        case "gif"?: self = .gif
        case "mp4"?, "m4v"?: self = .mp4
        default: self = .pngFolder
        }
    }

    /// Throws when this format's encoder cannot run here: MP4's FFmpeg is opened on first use, and
    /// may not be installed.
    public func checkEncoder() throws(RecordingError) {
        if self == .mp4 { _ = try FFmpegLibraries.load() }
    }

    /// Whether the frame's sides must be even (4:2:0 chroma halves both).
    public var needsEvenSides: Bool { self == .mp4 }

    /// A new encoder for frames of `width`×`height` pixels shown at about `fps`. `live`: frames come
    /// from a window as it runs, and the encoder must keep up on a spare core, so each format trades
    /// a little size for speed (WebP: 4 % larger, 2.5× faster).
    public func makeEncoder(width: Int, height: Int, fps: Double, live: Bool = false) throws(RecordingError) -> any AnimationEncoder {
        switch self {
        case .webp: try WebPAnimationEncoder(width: width, height: height, method: live ? 2 : 4)
        case .gif: GIFAnimationEncoder(width: width, height: height, quantizerSpeed: live ? 8 : 4)
        case .mp4: try MP4Encoder(width: width, height: height, fps: fps, preset: live ? "veryfast" : "medium")
        case .pngFolder: PNGSequenceEncoder()
        }
    }

    /// The frame size for a view of `width`×`height` pixels: `limit` (`--record-size`) scales it
    /// down to fit, keeping its shape, never up.
    public func frameSize(width: Int, height: Int, limit: (width: Int, height: Int)?) -> (width: Int, height: Int) {
        var scale = 1.0
        if let limit { scale = min(1, Double(limit.width) / Double(width), Double(limit.height) / Double(height)) }
        var w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        if needsEvenSides { w = max(2, w & ~1); h = max(2, h & ~1) }
        return (w, h)
    }
}
