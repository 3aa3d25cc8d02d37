import CAV
import Glibc

/// What a clip's pictures or its sound read from: FFmpeg's table, and a source over a copy of the clip's descriptor
/// (or of the movie inside it), at a fixed address, as the C side keeps it. The one who opens it closes it.
enum ClipSourceCopy {
    /// FFmpeg's table and the source; thrown: FFmpeg is missing, or the descriptor cannot be copied.
    static func open(fd: Int32, movie: EmbeddedMovie?, format: String) throws(ImageDecodeError)
        -> (av: UnsafePointer<photozoom_av>, source: UnsafeMutablePointer<photozoom_clip_source>) {
        var reason: UnsafePointer<CChar>?
        guard let av = photozoom_av_load(&reason) else {
            throw .libraryMissing(format: format, reason: "FFmpeg's libraries could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        let copy = dup(fd)
        guard copy >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        var info = stat()
        _ = fstat(copy, &info)
        let source = UnsafeMutablePointer<photozoom_clip_source>.allocate(capacity: 1)
        source.initialize(to: photozoom_clip_source(fd: copy, data: nil, start: movie?.offset ?? 0, size: movie?.length ?? Int64(info.st_size),
                                                    position: 0, sought_past_end: 0))
        return (av, source)
    }

    /// Closes the copy and lets the source go.
    static func close(_ source: UnsafeMutablePointer<photozoom_clip_source>) {
        Glibc.close(source.pointee.fd)
        source.deallocate()
    }
}
