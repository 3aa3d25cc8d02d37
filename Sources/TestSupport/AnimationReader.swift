import CAV
import CGIF
import CWebPDemux
import Foundation
import Pixels

/// A recording read back with the formats' own decoders (libwebpdemux, giflib, FFmpeg): each frame
/// as shown (opaque pixels) and when it starts, in seconds.
public struct DecodedAnimation {
    public let frames: [(image: PixelImage, time: Double)]
    /// When the last frame ends (WebP and GIF say; a video's last frame has no stated end).
    public let end: Double?
    public var width: Int { frames.first?.image.width ?? 0 }
    public var height: Int { frames.first?.image.height ?? 0 }
}

public struct AnimationReadError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum AnimationReader {
    /// Animated (or still) WebP, composed frame by frame by `WebPAnimDecoder`.
    public static func webp(_ bytes: [UInt8]) throws -> DecodedAnimation {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw AnimationReadError("libwebpdemux version mismatch") }
        options.color_mode = MODE_BGRA
        return try bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { throw AnimationReadError("not a WebP animation") }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw AnimationReadError("no animation info") }
            var frames: [(PixelImage, Double)] = []
            var previous = 0.0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0   // when this frame ends
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else { throw AnimationReadError("a frame did not decode") }
                let image = PixelImage(width: Int(info.canvas_width), height: Int(info.canvas_height), isOpaque: true)
                image.bytes.copyMemory(from: pixels, byteCount: image.stride * image.height)
                frames.append((image, previous))
                previous = Double(timestamp) / 1000
            }
            return DecodedAnimation(frames: frames, end: previous)
        }
    }

    /// GIF, composed onto a canvas as a browser shows it (each frame's rectangle over the last).
    public static func gif(_ bytes: [UInt8]) throws -> DecodedAnimation {
        final class Source { var bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let source = Source(bytes)
        var error: Int32 = 0
        let gif = withExtendedLifetime(source) {
            DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { gif, buffer, length in
                let source = Unmanaged<Source>.fromOpaque(gif!.pointee.UserData).takeUnretainedValue()
                let n = min(Int(length), source.bytes.count - source.offset)
                source.bytes.withUnsafeBufferPointer { buffer!.update(from: $0.baseAddress! + source.offset, count: n) }
                source.offset += n
                return Int32(n)
            }, &error)
        }
        guard let gif else { throw AnimationReadError("not a GIF (error \(error))") }
        defer { DGifCloseFile(gif, nil) }
        guard withExtendedLifetime(source, { DGifSlurp(gif) }) == GIF_OK else { throw AnimationReadError("the GIF did not decode") }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        var canvas = [UInt32](repeating: 0xFF00_0000, count: width * height)
        var frames: [(PixelImage, Double)] = []
        var time = 0.0
        for i in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[i]
            let d = saved.ImageDesc
            guard let map = d.ColorMap ?? gif.pointee.SColorMap else { throw AnimationReadError("frame \(i) has no palette") }
            var control = GraphicsControlBlock()
            DGifSavedExtensionToGCB(gif, Int32(i), &control)
            for y in 0..<Int(d.Height) {
                for x in 0..<Int(d.Width) {
                    let index = Int(saved.RasterBits[y * Int(d.Width) + x])
                    if index == Int(control.TransparentColor) { continue }
                    let c = map.pointee.Colors[index]
                    canvas[(Int(d.Top) + y) * width + Int(d.Left) + x] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
                }
            }
            let image = PixelImage(width: width, height: height, isOpaque: true)
            canvas.withUnsafeBytes { image.bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            frames.append((image, time))
            time += Double(control.DelayTime) / 100
        }
        return DecodedAnimation(frames: frames, end: time)
    }

    /// A video file, every frame decoded by FFmpeg and converted to RGB, timed by its presentation time.
    public static func video(path: String) throws -> DecodedAnimation {
        var format: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&format, path, nil, nil) >= 0, let format else { throw AnimationReadError("FFmpeg cannot open \(path)") }
        defer { var f: UnsafeMutablePointer<AVFormatContext>? = format; avformat_close_input(&f) }
        guard avformat_find_stream_info(format, nil) >= 0 else { throw AnimationReadError("no stream info") }
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        guard index >= 0, let codec, let context = avcodec_alloc_context3(codec) else { throw AnimationReadError("no video stream") }
        defer { var c: UnsafeMutablePointer<AVCodecContext>? = context; avcodec_free_context(&c) }
        let stream = format.pointee.streams[Int(index)]!
        avcodec_parameters_to_context(context, stream.pointee.codecpar)
        guard avcodec_open2(context, codec, nil) >= 0 else { throw AnimationReadError("no decoder") }
        var packet = av_packet_alloc(), frame = av_frame_alloc()
        defer { av_packet_free(&packet); av_frame_free(&frame) }
        var frames: [(PixelImage, Double)] = []
        let timeBase = av_q2d(stream.pointee.time_base)
        func receive() {
            while avcodec_receive_frame(context, frame) >= 0 {
                let f = frame!.pointee
                let image = PixelImage(width: Int(f.width), height: Int(f.height), isOpaque: true)
                let scaler = sws_getContext(f.width, f.height, AVPixelFormat(f.format), f.width, f.height, AV_PIX_FMT_BGRA,
                                            SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
                _ = sws_setColorspaceDetails(scaler, sws_getCoefficients(SWS_CS_ITU709), 0, sws_getCoefficients(SWS_CS_ITU709), 1,
                                             0, 1 << 16, 1 << 16)
                var planes: [UnsafePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, f.data.3].map { $0.map { UnsafePointer($0) } }
                var strides = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
                var target: [UnsafeMutablePointer<UInt8>?] = [image.bytes.assumingMemoryBound(to: UInt8.self)]
                var targetStride: [Int32] = [Int32(image.stride)]
                sws_scale(scaler, &planes, &strides, 0, f.height, &target, &targetStride)
                sws_freeContext(scaler)
                frames.append((image, Double(f.best_effort_timestamp) * timeBase))
            }
        }
        while av_read_frame(format, packet) >= 0 {
            if packet!.pointee.stream_index == index { avcodec_send_packet(context, packet) }
            av_packet_unref(packet)
            receive()
        }
        avcodec_send_packet(context, nil)
        receive()
        return DecodedAnimation(frames: frames.sorted { $0.1 < $1.1 }, end: nil)
    }
}
