import CAV
import Glibc
import Pixels

/// H.264 in MP4 through FFmpeg's libavcodec (x264) and libavformat, muxed into memory. Frames keep
/// their own times (a millisecond time base), so a window's recording, drawn only while something
/// moves, plays at the speed it happened. Bit-exact flags keep a headless recording's bytes the same
/// from run to run.
public final class MP4Encoder: AnimationEncoder {
    /// x264's constant quality (lower is better; 18–23 is "looks like the source").
    static let crf = "20"
    static let timeBase = AVRational(num: 1, den: 1000)

    private var av: photozoom_av
    private let width: Int32, height: Int32
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var memory = UnsafeMutablePointer<photozoom_memory_file>.allocate(capacity: 1)
    private var stream: UnsafeMutablePointer<AVStream>
    private var converter: OpaquePointer?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var lastPTS: Int64 = -1
    /// One frame at the run's rate, in the time base.
    private let frameDuration: Int64

    /// `preset`: x264's speed/size trade ("medium" its default; "veryfast" keeps up with a window).
    public init(width: Int, height: Int, fps: Double, preset: String = "medium") throws(RecordingError) {
        do { av = try FFmpegLibraries.load() } catch {
            memory.deallocate()
            throw error
        }
        // What goes wrong is said once, in the project's words; x264's statistics are not for the user.
        av.av_log_set_level(AV_LOG_QUIET)
        self.width = Int32(width)
        self.height = Int32(height)
        frameDuration = max(1, Int64((1000 / fps).rounded()))
        memory.initialize(to: photozoom_memory_file())
        guard let h264 = av.avcodec_find_encoder_by_name("libx264") ?? av.avcodec_find_encoder(AV_CODEC_ID_H264) else {
            memory.deallocate()
            throw RecordingError("this FFmpeg has no H.264 encoder (install libavcodec with x264)")
        }
        var format: UnsafeMutablePointer<AVFormatContext>?
        guard av.avformat_alloc_output_context2(&format, nil, "mp4", nil) >= 0, let format,
              let stream = av.avformat_new_stream(format, nil), let codec = av.avcodec_alloc_context3(h264) else {
            memory.deallocate()
            throw RecordingError("FFmpeg could not start an MP4 file")
        }
        self.format = format
        self.stream = stream
        self.codec = codec
        codec.pointee.width = self.width
        codec.pointee.height = self.height
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = Self.timeBase
        codec.pointee.framerate = av.av_d2q(fps, 1000)
        // The screen is sRGB; the frames are converted with BT.709's matrix and say so.
        codec.pointee.color_primaries = AVCOL_PRI_BT709
        codec.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        codec.pointee.colorspace = AVCOL_SPC_BT709
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        format.pointee.flags |= AVFMT_FLAG_BITEXACT
        _ = av.av_opt_set(codec.pointee.priv_data, "crf", Self.crf, 0)
        _ = av.av_opt_set(codec.pointee.priv_data, "preset", preset, 0)
        try check(av.avcodec_open2(codec, h264, nil), "opening the H.264 encoder")
        try check(av.avcodec_parameters_from_context(stream.pointee.codecpar, codec), "describing the video")
        stream.pointee.time_base = Self.timeBase
        io = photozoom_memory_file_open_io(&self.av, memory)
        guard let io else { throw RecordingError("FFmpeg could not allocate its output") }
        format.pointee.pb = io
        try check(av.avformat_write_header(format, nil), "writing the MP4 header")

        converter = av.sws_getContext(self.width, self.height, AV_PIX_FMT_BGRA, self.width, self.height, AV_PIX_FMT_YUV420P,
                                   SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        picture = av.av_frame_alloc()
        packet = av.av_packet_alloc()
        guard let converter, picture != nil, packet != nil else { throw RecordingError("FFmpeg could not allocate a frame") }
        _ = av.sws_setColorspaceDetails(converter, av.sws_getCoefficients(SWS_CS_ITU709), 1, av.sws_getCoefficients(SWS_CS_ITU709), 0,
                                     0, 1 << 16, 1 << 16)
    }

    deinit {
        if let format, format.pointee.pb != nil { format.pointee.pb = nil }
        photozoom_memory_file_close_io(&av, &io)
        av.avcodec_free_context(&codec)
        av.avformat_free_context(format)
        av.sws_freeContext(converter)
        av.av_frame_free(&picture)
        av.av_packet_free(&packet)
        free(memory.pointee.data)
        memory.deallocate()
    }

    public func add(_ frame: PixelImage, at time: Double) throws(RecordingError) {
        precondition(frame.width == width && frame.height == height, "a frame of another size")
        guard let picture else { return }
        // Two frames within a millisecond: the later picture takes the earlier's place.
        let pts = max(lastPTS + 1, Int64((time * 1000).rounded()))
        try newBuffer(picture)
        var source: [UnsafePointer<UInt8>?] = [UnsafePointer(frame.bytes.assumingMemoryBound(to: UInt8.self))]
        var sourceStride: [Int32] = [Int32(frame.stride)]
        withUnsafeMutablePointer(to: &picture.pointee.data) { planes in
            withUnsafeMutablePointer(to: &picture.pointee.linesize) { strides in
                planes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        _ = av.sws_scale(converter, &source, &sourceStride, 0, height, planes, strides)
                    }
                }
            }
        }
        picture.pointee.pts = pts
        lastPTS = pts
        try check(av.avcodec_send_frame(codec, picture), "encoding a frame")
        try drainPackets()
    }

    public func finish(at end: Double) throws(RecordingError) -> RecordedAnimation {
        guard lastPTS >= 0 else { throw RecordingError("no frame was recorded") }
        try check(av.avcodec_send_frame(codec, nil), "finishing the video")
        try drainPackets()
        try check(av.av_write_trailer(format), "writing the MP4 index")
        photozoom_memory_file_close_io(&av, &io)
        format?.pointee.pb = nil
        guard memory.pointee.failed == 0, let data = memory.pointee.data else { throw RecordingError("out of memory for the MP4 file") }
        return .file(Array(UnsafeBufferPointer(start: data, count: Int(memory.pointee.size))))
    }

    /// A fresh, zeroed buffer for the next frame: the encoder may still hold the last one, and x264
    /// reads some of the rows' padding, which the conversion never writes (left as it came from
    /// malloc, it made the same frames encode differently from run to run).
    private func newBuffer(_ picture: UnsafeMutablePointer<AVFrame>) throws(RecordingError) {
        av.av_frame_unref(picture)
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = width
        picture.pointee.height = height
        try check(av.av_frame_get_buffer(picture, 0), "allocating a frame")
        let f = picture.pointee
        for (plane, stride, rows) in [(f.data.0, f.linesize.0, height), (f.data.1, f.linesize.1, (height + 1) / 2),
                                      (f.data.2, f.linesize.2, (height + 1) / 2)] {
            plane.map { _ = memset($0, 0, Int(stride) * Int(rows)) }
        }
    }

    private func drainPackets() throws(RecordingError) {
        while true {
            let status = av.avcodec_receive_packet(codec, packet)
            if status == photozoom_averror_again() || status == photozoom_averror_eof() { return }
            try check(status, "encoding a frame")
            // The muxer times each frame by the next one's start; the last one needs its own length.
            if packet!.pointee.duration == 0 { packet!.pointee.duration = frameDuration }
            av.av_packet_rescale_ts(packet, Self.timeBase, stream.pointee.time_base)
            packet!.pointee.stream_index = stream.pointee.index
            try check(av.av_interleaved_write_frame(format, packet), "writing a frame")
        }
    }

    private func check(_ status: Int32, _ doing: String) throws(RecordingError) {
        guard status < 0 else { return }
        var text = [CChar](repeating: 0, count: 128)
        _ = av.av_strerror(status, &text, text.count)
        throw RecordingError("FFmpeg failed \(doing): \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}
