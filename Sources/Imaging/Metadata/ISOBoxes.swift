/// The boxes of an ISO base media file (HEIF, AVIF) laid end to end in `bytes`: each one's type and
/// payload. A box whose size runs past the bytes ends the run with its payload cut there (a file's
/// first bytes hold its `meta` box whole, its `mdat` rarely); a size that makes no sense ends it.
struct ISOBoxes: Sequence, IteratorProtocol {
    private let bytes: ArraySlice<UInt8>
    private var at: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        at = bytes.startIndex
    }

    mutating func next() -> (type: String, payload: Range<Int>)? {
        var reader = BigEndianReader(bytes[at...])
        guard let size32 = reader.integer(bytes: 4), let type = reader.fourCC() else { return nil }
        var size = UInt64(size32)
        if size32 == 1 {
            guard let large = reader.integer(bytes: 8) else { return nil }
            size = large
        } else if size32 == 0 {
            size = UInt64(bytes.endIndex - at)   // to the end of the file
        }
        let header = reader.position - at
        guard size >= UInt64(header) else { return nil }
        let end = size > UInt64(bytes.endIndex - at) ? bytes.endIndex : at + Int(size)
        defer { at = end }
        return (type, (at + header)..<end)
    }
}

/// Big-endian integers read one after another from a slice, every read bounds-checked (nil past the end).
struct BigEndianReader {
    private let bytes: ArraySlice<UInt8>
    /// Where the next read starts (an index of the slice).
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// An unsigned integer of `count` bytes (0 to 8; 0 reads nothing and gives 0, as the sizes in an
    /// `iloc` box allow).
    mutating func integer(bytes count: Int) -> UInt64? {
        guard (0...8).contains(count), count <= bytes.endIndex - position else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<(position + count)] { value = value << 8 | UInt64(byte) }
        position += count
        return value
    }

    mutating func fourCC() -> String? {
        guard 4 <= bytes.endIndex - position else { return nil }
        defer { position += 4 }
        return String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.endIndex - position else { return false }
        position += count
        return true
    }
}
