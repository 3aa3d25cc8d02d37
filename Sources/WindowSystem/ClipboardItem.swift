/// One form of what is copied: a MIME type (or X target name) and its bytes, made when a program
/// first asks for them (a photo's PNG is encoded only if someone pastes a picture).
public struct ClipboardItem: Sendable {
    public let target: String
    public let bytes: @Sendable () -> [UInt8]?

    public init(target: String, bytes: @escaping @Sendable () -> [UInt8]?) {
        self.target = target
        self.bytes = bytes
    }
}
