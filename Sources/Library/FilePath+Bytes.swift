import Glibc
import SystemPackage

extension FilePath {
    /// The path as the bytes the file system names it by (a name that is not UTF-8 stays as it is).
    public var bytes: [UInt8] { withPlatformString { UnsafeRawBufferPointer(start: $0, count: strlen($0)).map { $0 } } }

    /// The path the file system names by `bytes`.
    public init(bytes: [UInt8]) { self.init(platformString: bytes.map(CChar.init(bitPattern:)) + [0]) }
}
