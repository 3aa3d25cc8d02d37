import Foundation
import FuzzTargets

/// `PHOTOZOOM_FUZZ` picks the target.
let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PHOTOZOOM_FUZZ"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("photozoom-fuzz: error: set PHOTOZOOM_FUZZ to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

#if FUZZING
/// libFuzzer's entry: built with `swift build --sanitize=fuzzer -Xswiftc -DFUZZING`, libFuzzer brings `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
/// Without the fuzzer: runs the files named on the command line through the target, one by one, as
/// the fuzzer would run them (to reproduce a finding under a debugger). `--hostile-set FOLDER FIXTURES`
/// writes the hostile set into FOLDER instead (for `scripts/fuzz-sandbox`).
@main
enum ReplayFiles {
    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "--hostile-set" {
            print(try HostileSet.write(into: arguments[2], fixtures: arguments[3]).all.joined(separator: "\n"))
            return
        }
        for path in arguments.dropFirst() {
            print(path)
            selected.run([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
}
#endif
