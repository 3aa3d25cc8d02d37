import CPulse
import Glibc
import Imaging

/// A stream of sound to the desktop's sound server through PulseAudio's simple API (PipeWire's pulse server answers it
/// alike): 16-bit stereo at 48 kHz, a tenth of a second buffered, so that a pause is heard at once and the played
/// position is known to a few ms.
final class SoundOutput {
    /// The server's buffer, s: enough that a writer a frame late never runs it dry.
    static let buffered = 0.1

    private let pulse: UnsafePointer<photozoom_pulse>
    private let stream: OpaquePointer

    /// Connects as `name` (the clip's); thrown: the sound server's (or the loader's) words.
    init(name: String) throws(SoundOutputError) {
        var reason: UnsafePointer<CChar>?
        guard let pulse = photozoom_pulse_load(&reason) else {
            throw SoundOutputError(words: "PulseAudio's library could not be opened: \(reason.map { String(cString: $0) } ?? "")")
        }
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(SoundPiece.rate), channels: UInt8(SoundPiece.channels))
        let bytes = UInt32(Self.buffered * Double(SoundPiece.rate * SoundPiece.channels * 2))
        // It starts once a fifth of that is in: the first sound (and so the pictures that follow it) comes sooner.
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: bytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        var error: Int32 = 0
        guard let stream = pulse.pointee.pa_simple_new(nil, "PhotoZoomAnimator", PA_STREAM_PLAYBACK, nil, name, &spec, nil,
                                                       &attributes, &error) else {
            throw SoundOutputError(words: pulse.pointee.pa_strerror(error).map { String(cString: $0) } ?? "error \(error)")
        }
        (self.pulse, self.stream) = (pulse, stream)
    }

    deinit { pulse.pointee.pa_simple_free(stream) }

    /// Hands `samples` over, waiting while the server's buffer is full; false when the server went away.
    func write(_ samples: ArraySlice<Int16>) -> Bool {
        var error: Int32 = 0
        return samples.withUnsafeBytes { pulse.pointee.pa_simple_write(stream, $0.baseAddress, $0.count, &error) } == 0
    }

    /// How long what was handed over takes to be heard, s (the buffer and the sink's own latency).
    var latency: Double {
        var error: Int32 = 0
        let microseconds = pulse.pointee.pa_simple_get_latency(stream, &error)
        return error == 0 ? Double(microseconds) / 1e6 : 0
    }

    /// Drops what was handed over and not yet played.
    func flush() {
        var error: Int32 = 0
        _ = pulse.pointee.pa_simple_flush(stream, &error)
    }
}

struct SoundOutputError: Error {
    let words: String
}
