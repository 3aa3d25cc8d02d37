import CAV

/// FFmpeg's functions for the MP4 encoder, opened the first time one is needed (CAV.h says why
/// they are not linked). Without FFmpeg installed, every other format still records.
enum FFmpegLibraries {
    static func load() throws(RecordingError) -> photozoom_av {
        var reason: UnsafePointer<CChar>?
        guard let table = photozoom_av_load(&reason) else {
            throw RecordingError("MP4 needs FFmpeg's libraries (libavformat, libavcodec with x264, libswscale), "
                                 + "which could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        return table.pointee
    }
}
