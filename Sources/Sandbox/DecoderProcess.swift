import CMalloc
import CSandbox
import Foundation
import Glibc
import Imaging
import Pixels
import Threads

/// The viewer's hidden mode (`photozoom --decoder-process PARENT NICENESS LIBRARIES`): one decoder of the pool. It
/// opens the libraries opened on demand that it is asked to (`libheif,librsvg`; `linked`, none: their formats go to
/// another), confines itself, then answers requests on descriptor 3 one at a time until the viewer closes the
/// socket. A picture is decoded in the decoder's heap, which keeps its memory for the
/// next one; the one handed over is written into a memory file (`SharedPixelMemory`), sealed and sent, and the
/// viewer maps it: one copy, into pages made for it.
public enum DecoderProcess {
    /// The first argument that starts this mode.
    public static let argument = "--decoder-process"
    /// Its last argument: the libraries opened on demand it opens, by their format table names, joined with commas;
    /// `linked` for none (only the program's own).
    static func argument(opening libraries: Set<String>) -> String { libraries.isEmpty ? "linked" : libraries.sorted().joined(separator: ",") }
    static func libraries(in argument: String?) -> Set<String> {
        argument == "linked" ? [] : Set((argument ?? "").split(separator: ",").map(String.init)).intersection(LibrariesAhead.all)
    }
    /// Pictures up to this size stay in the heap (glibc's largest mmap bound); a larger one is mapped, and given back.
    static let heapPictures: Int32 = 32 << 20
    /// What is mapped instead while the heap is cold: glibc's default threshold, as the viewer's.
    static let coldPictures: Int32 = 128 << 10
    static let socket: Int32 = 3

    /// Runs the mode to its end; never returns.
    public static func run(arguments: [String]) -> Never {
        guard let parent = arguments.dropFirst().first.flatMap({ pid_t($0) }) else { exit(2) }
        do throws(Confinement.Failure) {
            try Confinement.detach(socket: socket, parent: parent)
            let libraries = Self.libraries(in: arguments.dropFirst(3).first)
            if !libraries.isEmpty { _ = LibrariesAhead.open(libraries) }
            // The heap kept once warm: a decode's 12 MB of intermediate pixels reuse the last one's pages instead of
            // faulting in fresh ones each time (where pictures go, heap or mappings, each request sets).
            _ = photozoom_malloc_trim_threshold(Self.heapPictures)
            // Started at the viewer's priority (ready sooner on a loaded machine), it decodes below it; the
            // threads made from here on (the release thread, libheif's) take the lower one.
            ThreadPriority.lowered(by: arguments.dropFirst(2).first.flatMap { Int32($0) } ?? 0).applyToCurrentThread()
            // A picture's memory is let go on a thread of its own, after the answer has gone.
            LargeImageRelease.start()
            // One that draws SVGs reads the fonts their text asks for as it draws it.
            try Confinement.confine(readable: libraries.contains("librsvg") ? Confinement.fontFolders() : [])
        } catch {
            // The viewer reads this as the process's first message, and says it in one line.
            _ = DecoderChannel.send(DecoderReply(error: .unreadable("the decoder could not confine itself: \(error)")), on: socket)
            exit(3)
        }
        _ = DecoderChannel.send(DecoderReply(), on: socket)   // ready
        var state = State()
        while true {
            if giveBackTheHeapWhenIdle() { state.heapIsWarm = false }
            guard let (request, descriptor) = DecoderChannel.receive(DecoderRequest.self, on: socket) else { break }
            let (reply, memory) = answer(request, file: descriptor, state: &state)
            if descriptor >= 0 { close(descriptor) }
            let sent = DecoderChannel.send(reply, on: socket, descriptor: memory)
            if memory >= 0 { close(memory) }
            guard sent else { break }
        }
        exit(0)
    }

    /// A decoder asked again soon (a grid filling, photos paged through) decodes into the pages its last picture
    /// left in the heap; one left idle for `idleSeconds` gives them back, so that a viewer at rest holds no decoder
    /// memory beyond its libraries'.
    /// True when it gave the heap back.
    private static func giveBackTheHeapWhenIdle() -> Bool {
        var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, Int32(idleSeconds * 1000)) == 0 else { return false }
        _ = malloc_trim(0)
        return true
    }

    static let idleSeconds = 0.2

    /// What a decoder keeps between requests.
    struct State {
        var colours = ColourTargets()
        /// Whether the heap holds the pages of a picture decoded since it was last given back. While it does, a
        /// picture is shrunk into them and copied into its memory file (faster than fresh pages); else it is
        /// shrunk into its memory file, which costs the same page faults, one copy and a picture's memory fewer.
        var heapIsWarm = false
        /// The frames it plays, when it is an animation's decoder.
        var animation: AnimatedImage?
        /// The sound it plays, when it is a clip's sound's decoder.
        var sound: ClipSound?
    }

    private static func answer(_ request: DecoderRequest, file: Int32, state: inout State) -> (DecoderReply, Int32) {
        Confinement.allowCPU(seconds: request.cpuSeconds)
        let colour = state.colours.target(request.colourProfile)
        switch request.kind {
        case .openAnimation, .nextFrame, .rewind:
            return play(request, file: file, colour: colour, animation: &state.animation)
        case .seek where state.sound == nil:
            return play(request, file: file, colour: colour, animation: &state.animation)
        case .openSound, .nextSound, .seek:
            return playSound(request, file: file, sound: &state.sound)
        case .picture:
            do throws(ImageDecodeError) {
                guard file >= 0 else { throw .unreadable("no file was given") }
                // Cold, a picture's memory is mapped and given back as it is freed: the heap is kept from the
                // next picture on, when pictures come one after another.
                _ = photozoom_malloc_mmap_threshold(state.heapIsWarm ? Self.heapPictures : Self.coldPictures)
                defer { state.heapIsWarm = true }
                return handOver(try ImageDecoder.decodeHere(fd: file, atLeast: request.atLeast, colour: colour,
                                                            inMemoryFile: !state.heapIsWarm))
            } catch {
                return (DecoderReply(error: error), -1)
            }
        case .embeddedThumbnail:
            guard file >= 0, let image = EmbeddedThumbnail.read(fd: file, colour: colour) else { return (DecoderReply(), -1) }
            return handOver(DecodedImage(image: image, fullSize: (image.width, image.height), format: .jpeg))
        case .escape:
            #if DEBUG
            return (DecoderReply(error: EscapeAttempt.run(request.attempt ?? "")), -1)
            #else
            return (DecoderReply(error: .unreadable("not in a release build")), -1)
            #endif
        }
    }

    /// An animation's requests: opened from the file, then frame after frame.
    private static func play(_ request: DecoderRequest, file: Int32, colour: ColourTarget,
                             animation: inout AnimatedImage?) -> (DecoderReply, Int32) {
        do throws(ImageDecodeError) {
            switch request.kind {
            case .openAnimation:
                guard file >= 0 else { throw .unreadable("no file was given") }
                animation = try AnimatedImage.open(fd: file, colour: colour, movie: request.movie)
                return (DecoderReply(loopCount: animation?.loopCount), -1)
            case .rewind:
                try animation?.rewind()
                return (DecoderReply(), -1)
            case .seek:
                try animation?.seek(to: request.seekTo ?? 0)
                return (DecoderReply(), -1)
            default:
                guard let animation else { throw .unreadable("no animation was opened") }
                guard let frame = try animation.nextFrame(covering: request.atLeast) else { return (DecoderReply(loopCount: animation.loopCount), -1) }
                var (reply, memory) = handOver(DecodedImage(image: frame.image, fullSize: (frame.image.width, frame.image.height), format: animation.format))
                (reply.duration, reply.frameTime, reply.loopCount) = (frame.duration, frame.time, animation.loopCount)
                return (reply, memory)
            }
        } catch {
            return (DecoderReply(error: error), -1)
        }
    }

    /// A clip's sound's requests: opened from the file, then piece after piece, each in a sealed memory file.
    private static func playSound(_ request: DecoderRequest, file: Int32, sound: inout ClipSound?) -> (DecoderReply, Int32) {
        do throws(ImageDecodeError) {
            if request.kind == .openSound {
                guard file >= 0 else { throw .unreadable("no file was given") }
                sound = try ClipSound(fd: file, movie: request.movie)
                return (DecoderReply(hasSound: sound != nil), -1)
            }
            guard let sound else { throw .unreadable("no sound was opened") }
            if request.kind == .seek {
                try sound.seek(to: request.seekTo ?? 0)
                return (DecoderReply(), -1)
            }
            guard let piece = try sound.nextPiece(atLeast: request.soundSeconds ?? 0.25) else { return (DecoderReply(), -1) }
            let memory = piece.samples.withUnsafeBytes { SharedPixelMemory.file(holding: $0.baseAddress!, byteCount: $0.count) }
            guard memory >= 0, SharedPixelMemory.seal(memory) else {
                if memory >= 0 { close(memory) }
                throw .unreadable("the decoder could not hand the sound over")
            }
            return (DecoderReply(soundStart: piece.seconds, soundFrames: piece.frames), memory)
        } catch {
            return (DecoderReply(error: error), -1)
        }
    }

    /// The picture, and its pixels' memory file sealed against any change of size.
    private static func handOver(_ decoded: DecodedImage) -> (DecoderReply, Int32) {
        let image = decoded.image
        let picture = DecoderReply.Picture(width: image.width, height: image.height, stride: image.stride, isOpaque: image.isOpaque,
                                           fullWidth: decoded.fullSize.width, fullHeight: decoded.fullSize.height,
                                           format: decoded.format.name, problem: decoded.problem, isAnimated: decoded.isAnimated,
                                           clip: decoded.clip, motion: decoded.motion)
        let memory = memoryFile(holding: image)
        guard memory >= 0 else { return (DecoderReply(error: .unreadable("the decoder could not hand the picture over")), -1) }
        return (DecoderReply(picture: picture), memory)
    }

    /// A descriptor of a sealed memory file with `image`'s pixels (the one they were made in, else a copy); -1 when
    /// the kernel refuses.
    private static func memoryFile(holding image: PixelImage) -> Int32 {
        let fd = image.memoryFile.map { dup($0) } ?? SharedPixelMemory.file(holding: image.bytes, byteCount: image.stride * image.height)
        guard fd >= 0, SharedPixelMemory.seal(fd) else {
            if fd >= 0 { close(fd) }
            return -1
        }
        return fd
    }
}

/// The colour targets asked for so far, by their profile's bytes (a display's, or none for sRGB).
struct ColourTargets {
    private var made: [Data: ColourTarget] = [:]

    mutating func target(_ profile: Data) -> ColourTarget {
        guard !profile.isEmpty else { return .sRGB }
        if let known = made[profile] { return known }
        let target = ColourTarget(iccProfile: Array(profile)) ?? .sRGB
        made[profile] = target
        return target
    }
}
