import Glibc
import Foundation
import Imaging
import SystemPackage

/// Decoders for tests. Many tests open the same bundled photos at the same sizes; the memoizing
/// decoder decodes each (file as it is, size) once per test process, so the suite stays fast as it grows.
/// The pictures are immutable (`PixelImage`), so sharing them between tests is safe.
public enum TestDecoders {
    private struct Key: Hashable {
        let path: FilePath
        /// The file's size and modification time: a file written again (turned, replaced) decodes anew.
        let version: [Int]
        let width: Int?
        let height: Int?
    }

    /// The decodes so far, behind a pthread lock: ThreadSanitizer (`make sanitize`) sees its ordering,
    /// which it does not see in `Mutex` (a futex on Linux), so the decode threads' turns are no race to it.
    private final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var decodes: [Key: Result<DecodedImage, ImageDecodeError>] = [:]

        func withLock<R>(_ body: (inout [Key: Result<DecodedImage, ImageDecodeError>]) -> R) -> R {
            lock.withLock { body(&decodes) }
        }
    }

    private static let memo = Memo()

    /// `ImageDecoder.decode(file:atLeast:)`, remembered by path, the file's version and size.
    public static let memoizing: @Sendable (FilePath, (width: Int, height: Int)?) throws(ImageDecodeError) -> DecodedImage = {
        path, size throws(ImageDecodeError) in
        var info = stat()
        let version = stat(path.string, &info) == 0 ? [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec] : []
        let key = Key(path: path, version: version, width: size?.width, height: size?.height)
        if let known = memo.withLock({ $0[key] }) { return try known.get() }
        let result: Result<DecodedImage, ImageDecodeError>
        do throws(ImageDecodeError) {
            result = .success(try ImageDecoder.decode(file: path, atLeast: size))
        } catch {
            result = .failure(error)
        }
        memo.withLock { $0[key] = result }
        return try result.get()
    }
}
