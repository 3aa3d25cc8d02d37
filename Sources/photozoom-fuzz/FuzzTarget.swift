import Foundation
import Imaging
import Scripting

/// What `make fuzz` runs: the readers of untrusted bytes, each given whatever the fuzzer makes.
/// A target passes when it returns, whatever it returns; a crash, a trap or a sanitizer report is
/// a finding. `PHOTOZOOM_FUZZ` picks the target.
enum FuzzTarget: String, CaseIterable {
    /// A whole file as the viewer decodes it (format sniffed, EXIF orientation read), at full
    /// size and reduced as a grid cell asks for it. The three differ only in their seeds.
    case jpeg, png, webp
    /// The EXIF block: the input is a TIFF structure, put in a JPEG's APP1 segment as a camera
    /// writes it, then read for its orientation and its IFD1 thumbnail.
    case exif
    /// A `--script` file: parsed, then laid out on the frame clock.
    case script

    func run(_ bytes: [UInt8]) {
        switch self {
        case .jpeg, .png, .webp:
            _ = try? ImageDecoder.decode(data: bytes)
            _ = try? ImageDecoder.decode(data: bytes, atLeast: (64, 64))
        case .exif:
            let segment = Array("Exif".utf8) + [0, 0] + bytes.prefix(65_000)
            let length = segment.count + 2
            let jpeg = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + segment + [0xFF, 0xD9]
            _ = ExifOrientation(jpeg: jpeg)
            _ = EmbeddedThumbnail.read(jpegHead: jpeg[...])
        case .script:
            guard let commands = try? ScriptParser.parse(String(decoding: bytes, as: UTF8.self)) else { return }
            _ = ScriptTimeline(commands.map(\.command), frameInterval: 1.0 / 60)
        }
    }

    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PHOTOZOOM_FUZZ"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("photozoom-fuzz: error: set PHOTOZOOM_FUZZ to one of \(allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()
}

#if FUZZING
/// libFuzzer's entry: built with `swift build --sanitize=fuzzer -Xswiftc -DFUZZING`, libFuzzer brings `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.selected.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
/// Without the fuzzer: runs the files named on the command line through the target, one by one, as
/// the fuzzer would run them (to reproduce a finding under a debugger).
@main
enum ReplayFiles {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            print(path)
            FuzzTarget.selected.run([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
}
#endif
