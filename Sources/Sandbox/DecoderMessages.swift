import CSandbox
import Foundation
import Glibc
import Imaging

/// What the viewer asks of a decoder process: one message, with the file's descriptor beside it.
struct DecoderRequest: Codable, Equatable {
    enum Kind: String, Codable {
        /// The picture in the file, as `ImageDecoder.decode(data:atLeast:colour:)` makes it.
        case picture
        /// The small picture a camera keeps beside the photo (a JPEG's EXIF thumbnail, a HEIC's thumbnail item), as
        /// `EmbeddedThumbnail` reads it.
        case embeddedThumbnail
        /// A test build's proof that the confinement holds: the process tries what `attempt` names.
        case escape
        /// The file's frames opened to play, in a decoder of their own (the reply says whether it moves).
        case openAnimation
        /// The opened animation's next frame (no picture: the play is over).
        case nextFrame
        /// The opened animation back to before its first frame.
        case rewind
        /// The opened animation (or sound) to `seekTo`.
        case seek
        /// The clip's sound opened to play, in a decoder of its own (the reply says whether it has any).
        case openSound
        /// At least `soundSeconds` of the opened sound (its samples in the memory file; none: it is over).
        case nextSound
    }

    var kind: Kind
    var atLeastWidth: Int? = nil
    var atLeastHeight: Int? = nil
    /// The display's ICC profile the pixels are wanted in; empty for sRGB.
    var colourProfile = Data()
    /// The processor time this decode may take, s (past it the process gets SIGXCPU and dies).
    var cpuSeconds = 30
    /// For `.escape`: "open", "socket" or "exec".
    var attempt: String? = nil
    /// For `.nextSound`, s.
    var soundSeconds: Double? = nil
    /// For `.seek`, s from the start.
    var seekTo: Double? = nil
    /// For `.openAnimation` and `.openSound`: the movie inside the file (a Motion Photo's), not the file itself.
    var movie: EmbeddedMovie? = nil

    var atLeast: (width: Int, height: Int)? {
        guard let atLeastWidth, let atLeastHeight else { return nil }
        return (atLeastWidth, atLeastHeight)
    }
}

/// A decoder process's answer: a picture (its pixels in the sealed memory file sent beside it), none,
/// or the reason it could not make one.
struct DecoderReply: Codable, Equatable {
    struct Picture: Codable, Equatable {
        var width: Int
        var height: Int
        var stride: Int
        var isOpaque: Bool
        var fullWidth: Int
        var fullHeight: Int
        /// `ImageFormat.name`.
        var format: String
        var problem: String?
        var isAnimated: Bool
        var clip: ClipFacts? = nil
        var motion: EmbeddedMovie? = nil
    }

    var picture: Picture?
    var error: ImageDecodeError?
    /// A frame's time on screen, s, and when it shows, s from the start.
    var duration: Double? = nil
    var frameTime: Double? = nil
    /// An animation's plays (0: for ever), once opened or after a frame; nil for a still picture.
    var loopCount: Int? = nil
    /// `.openSound`: whether the clip has sound.
    var hasSound: Bool? = nil
    /// `.nextSound`: the piece's first frame's time, s, and its frames (`SoundPiece`'s samples in the memory file).
    var soundStart: Double? = nil
    var soundFrames: Int? = nil
}

/// Messages on the socket between the viewer and a decoder: JSON, one datagram each (SOCK_SEQPACKET keeps
/// them whole), with at most one descriptor.
enum DecoderChannel {
    /// Larger than any request or reply (a display profile is a few KiB), within a socket's send buffer.
    static let maxMessage = 160 << 10

    static func send<Message: Encodable>(_ message: Message, on socket: Int32, descriptor: Int32 = -1) -> Bool {
        guard let bytes = try? JSONEncoder().encode(message), bytes.count <= maxMessage else { return false }
        return bytes.withUnsafeBytes { photozoom_send_message(socket, $0.baseAddress, $0.count, descriptor) } == bytes.count
    }

    /// The next message and its descriptor (the caller closes it); nil when the other end is gone or sent
    /// something that is not one.
    static func receive<Message: Decodable>(_ type: Message.Type, on socket: Int32) -> (Message, descriptor: Int32)? {
        var descriptor: Int32 = -1
        let buffer = [UInt8](unsafeUninitializedCapacity: maxMessage) { bytes, initialized in
            initialized = max(0, photozoom_receive_message(socket, bytes.baseAddress, bytes.count, &descriptor))
        }
        guard !buffer.isEmpty, let message = try? JSONDecoder().decode(type, from: Data(buffer)) else {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        return (message, descriptor)
    }
}
