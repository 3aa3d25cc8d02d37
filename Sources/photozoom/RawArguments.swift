import Glibc

/// The command line's own bytes for a PATH argument. Swift hands arguments over as Strings, in which
/// a name that is not UTF-8 (`caf\xe9.jpg`) has become U+FFFD and would no longer open; the argument
/// is taken from `argv` as it was given when it reads the same.
enum RawArguments {
    static func bytes(of argument: String) -> [UInt8] {
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = argv[i] else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
            if String(decoding: bytes, as: UTF8.self) == argument { return bytes }
        }
        return Array(argument.utf8)
    }
}
