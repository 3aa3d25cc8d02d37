import CMalloc

/// Pixels go back to the system when they are let go. glibc serves a block above its mmap bound on
/// its own mapping, but raises that bound (up to 32 MiB) each time such a block is freed, so that
/// later photos and thumbnails land in its heaps and stay there once freed. A fixed bound keeps
/// every picture on its own mapping: the grid of the bundled photos after a few opens holds 49 MiB
/// instead of 133 (measured by the soak test).
enum MemoryPolicy {
    static let mappedFrom = 128 << 10

    static func apply() {
        _ = photozoom_malloc_mmap_threshold(Int32(mappedFrom))
    }
}
