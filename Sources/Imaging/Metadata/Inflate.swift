import CPNG

/// zlib's inflate with a bound: a chunk that claims to hold a profile or a text of a gigabyte gives
/// nil once it passes `limit`, having cost no more than that.
enum Inflate {
    static func bytes(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard photozoom_inflate_init(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        return compressed.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard out.count + produced <= limit else { return nil }
                out += chunk[..<produced]
                if status == Z_STREAM_END { return out }
                // No progress possible: the data ends early or is damaged.
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
