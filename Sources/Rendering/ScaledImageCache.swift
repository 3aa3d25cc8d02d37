import CCairo
import Imaging
import Pixels

/// Pre-scaled copies of the photos a scene shows, so that a frame never filters a full-size photo.
///
/// Each photo gets a chain of halvings (full, 1/2, 1/4 …), each made once with an area filter; a
/// frame draws from the smallest copy that is still at least as large as the target, so Cairo only
/// ever shrinks by less than 2× with a cheap bilinear filter. The copies are held up to a memory
/// bound and dropped least-recently-used first.
final class ScaledImageCache {
    /// Memory for copies, in bytes (the originals belong to their owners).
    let byteLimit: Int
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var clock = 0
    /// Bytes held in copies (not counting the originals).
    private(set) var copiedBytes = 0

    private final class Entry {
        let original: PixelImage
        /// levels[k] is the original halved k times; made on demand.
        var levels: [Int: Level] = [:]
        var lastUse = 0
        init(original: PixelImage) { self.original = original }
    }

    final class Level {
        let image: PixelImage
        let surface: OpaquePointer
        init(_ image: PixelImage) { self.image = image; surface = image.makeCairoSurface() }
        deinit { cairo_surface_destroy(surface) }
    }

    init(byteLimit: Int = 256 << 20) { self.byteLimit = byteLimit }

    /// The copy to draw `image` from at `targetWidth`×`targetHeight` device pixels.
    func level(for image: PixelImage, targetWidth: Double, targetHeight: Double) -> Level {
        clock += 1
        let key = ObjectIdentifier(image)
        let entry = entries[key] ?? {
            let e = Entry(original: image)
            entries[key] = e
            return e
        }()
        entry.lastUse = clock

        var k = 0
        while Double(image.width >> (k + 1)) >= targetWidth, Double(image.height >> (k + 1)) >= targetHeight,
              image.width >> (k + 1) > 0, image.height >> (k + 1) > 0 {
            k += 1
        }
        if let level = entry.levels[k] { return level }
        let made = Level(k == 0 ? image : image.scaled(toWidth: image.width >> k, height: image.height >> k))
        entry.levels[k] = made
        if k > 0 { copiedBytes += made.image.stride * made.image.height }
        evictIfNeeded(keeping: key)
        return made
    }

    private func evictIfNeeded(keeping kept: ObjectIdentifier) {
        while copiedBytes > byteLimit,
              let (key, oldest) = entries.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
            for (k, level) in oldest.levels where k > 0 { copiedBytes -= level.image.stride * level.image.height }
            entries[key] = nil
        }
    }
}
