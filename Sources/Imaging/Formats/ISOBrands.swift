/// The brands of an ISO base media file (HEIF, AVIF, Canon CR3): its `ftyp` box's major brand and
/// compatible brands, which say what the file is.
struct ISOBrands {
    let major: String
    let compatible: [String]

    init?(_ head: ArraySlice<UInt8>) {
        let b = Array(head.prefix(256))
        guard b.count >= 16, b[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard size >= 16 else { return nil }
        func brand(_ at: Int) -> String { String(decoding: b[at..<(at + 4)], as: UTF8.self) }
        major = brand(8)
        compatible = stride(from: 16, to: min(size, b.count) - 3, by: 4).map(brand)
    }

    /// Whether the major brand or a compatible one is among `brands`.
    func includes(any brands: Set<String>) -> Bool { brands.contains(major) || compatible.contains { brands.contains($0) } }
}
