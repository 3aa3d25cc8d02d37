/// When a WebM or Matroska clip was made, read from its segment's `Info` without FFmpeg (as `QuickTimeMetadata`
/// reads a movie's): its `DateUTC`, nanoseconds since 2001-01-01 UTC, shown on this machine's clock. Matroska says
/// nothing of the camera.
enum MatroskaMetadata {
    static let segment: UInt32 = 0x1853_8067, info: UInt32 = 0x1549_A966, cluster: UInt32 = 0x1F43_B675
    static let dateUTC: UInt32 = 0x4461
    /// 2001-01-01 00:00:00 UTC, in seconds since 1970.
    static let epoch: Int64 = 978_307_200
    /// How many of the segment's first elements are looked through for its `Info` (it comes before the first cluster),
    /// and of the `Info`'s for its date.
    static let maxElements = 64

    /// An element: its ID (its length marker kept, as the specification writes IDs), where its data starts, and its end
    /// (nil: of unknown size, as a live stream's segment is).
    struct Element {
        let id: UInt32
        let data: Int
        let end: Int?
    }

    static func read(fd: Int32, fileSize: Int) -> PhotoFacts? {
        guard let header = element(fd, at: 0), header.id == 0x1A45_DFA3, let afterHeader = header.end,
              let segment = element(fd, at: afterHeader), segment.id == Self.segment else { return nil }
        let end = min(segment.end ?? fileSize, fileSize)
        var at = segment.data
        for _ in 0..<maxElements {
            guard at < end, let child = element(fd, at: at), child.id != cluster, let childEnd = child.end else { return nil }
            if child.id == info { return date(fd, in: child.data..<min(childEnd, end)).map { PhotoFacts(date: $0) } }
            at = childEnd
        }
        return nil
    }

    /// The `DateUTC` among the `Info` element's children in `range`.
    private static func date(_ fd: Int32, in range: Range<Int>) -> CaptureDate? {
        var at = range.lowerBound
        // An Info holds a dozen children: one claiming millions is not read through, a small read each.
        for _ in 0..<maxElements {
            guard at < range.upperBound, let child = element(fd, at: at), let end = child.end else { return nil }
            if child.id == dateUTC, end - child.data == 8, let bytes = FileHead.read(fd: fd, at: child.data, length: 8), bytes.count == 8 {
                let nanoseconds = Int64(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                return CaptureDate(utcOnThisMachine: epoch + nanoseconds / 1_000_000_000)
            }
            at = end
        }
        return nil
    }

    /// The element whose ID starts at `at`: an ID of 1–4 bytes and a size of 1–8, each led by its length's marker bit.
    static func element(_ fd: Int32, at: Int) -> Element? {
        guard let head = FileHead.read(fd: fd, at: at, length: 12), let first = head.first, first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, head.count > idLength else { return nil }
        let id = head[0..<idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let sizeFirst = head[idLength]
        guard sizeFirst != 0 else { return nil }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard head.count >= idLength + sizeLength else { return nil }
        let marker = UInt8(0x80) >> (sizeLength - 1)
        let bytes = [sizeFirst & (marker &- 1)] + head[(idLength + 1)..<(idLength + sizeLength)]
        let size = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let data = at + idLength + sizeLength
        // All ones: of unknown size.
        let unknown = size == (UInt64(1) << (7 * sizeLength)) - 1
        guard unknown || size <= UInt64(Int.max - data) else { return nil }
        return Element(id: id, data: data, end: unknown ? nil : data + Int(size))
    }
}
