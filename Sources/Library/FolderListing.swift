import Foundation
import Glibc
import SystemPackage

/// A folder's entry names as the bytes the file system holds, sorted the way a file manager sorts
/// them: by the name as shown (bytes that are not UTF-8 as U+FFFD), digits by value (IMG_2 before
/// IMG_10), case ignored; names shown alike keep their byte order.
enum FolderListing {
    /// Nil (with `errno` set) when the folder can't be opened.
    static func names(in folder: FilePath) -> [FilePath.Component]? {
        guard let stream = folder.withPlatformString({ opendir($0) }) else { return nil }
        defer { closedir(stream) }
        var names: [(key: [UInt32], raw: [UInt8], component: FilePath.Component)] = []
        while let entry = readdir(stream) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw != Array(".".utf8), raw != Array("..".utf8),
                  let component = FilePath.Component(platformString: raw.map { CChar(bitPattern: $0) } + [0]) else { continue }
            names.append((sortKey(String(decoding: raw, as: UTF8.self)), raw, component))
        }
        return names.sorted { a, b in
            a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : a.raw.lexicographicallyPrecedes(b.raw)
        }.map(\.component)
    }

    /// A name as it sorts: its characters case-folded, and each run of digits as a "0", the count of its
    /// significant digits, then those digits, so that a shorter number comes first (IMG_2 before IMG_10;
    /// 007 and 7 alike). Made once a name, so a folder of thousands sorts without comparing strings.
    static func sortKey(_ shown: String) -> [UInt32] {
        var key: [UInt32] = [], digits: [UInt32] = []
        func endDigits() {
            guard !digits.isEmpty else { return }
            let significant = digits.drop { $0 == 0x30 }
            let number = significant.isEmpty ? [0x30] : Array(significant)
            key += [0x30, 0x30 + UInt32(number.count)] + number
            digits = []
        }
        for scalar in shown.lowercased().unicodeScalars {
            if (0x30...0x39).contains(scalar.value) {
                digits.append(scalar.value)
            } else {
                endDigits()
                key.append(scalar.value)
            }
        }
        endDigits()
        return key
    }
}
