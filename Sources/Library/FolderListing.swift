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
        var names: [(shown: String, raw: [UInt8], component: FilePath.Component)] = []
        while let entry = readdir(stream) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw != Array(".".utf8), raw != Array("..".utf8),
                  let component = FilePath.Component(platformString: raw.map { CChar(bitPattern: $0) } + [0]) else { continue }
            names.append((String(decoding: raw, as: UTF8.self), raw, component))
        }
        return names.sorted { a, b in
            switch a.shown.compare(b.shown, options: [.numeric, .caseInsensitive]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.raw.lexicographicallyPrecedes(b.raw)
            }
        }.map(\.component)
    }
}
