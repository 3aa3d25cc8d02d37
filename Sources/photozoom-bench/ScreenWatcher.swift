import CX11
import Foundation

/// Watches what the X screen shows while a viewer launches: grabs the root window's top-left
/// 1920x1080 over and over
/// (XGetImage, about every 10 ms under Xvfb at 1920x1080) and notes each grab that differs from the
/// one before, with when and by how much. The last of them is when the screen stopped changing: a
/// grid that is complete and then changes again (its cells redrawn a little differently) shows here,
/// where no trace of the viewer's own can tell it.
final class ScreenWatcher: @unchecked Sendable {
    /// A grab that differed from the one before.
    struct Change: Sendable {
        /// Seconds since `start`.
        let at: Double
        /// Root-mean-square difference from the grab before, over every 4th pixel's RGB, in % of full scale.
        let rmsePercent: Double
    }

    private let lock = NSLock()
    private var stopped = false
    private var seen: [Change] = []
    private let thread: Thread
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching the display of `$DISPLAY`, counting time from `start` (nothing is seen without one).
    init(from start: Date) {
        let box = Box()
        thread = Thread {
            if let display = XOpenDisplay(nil) {
                Self.watch(display: display, from: start, until: { box.watcher?.isStopped ?? true }, noting: { box.watcher?.note($0) })
                XCloseDisplay(display)
            }
            box.watcher?.finished.signal()
        }
        box.watcher = self
        thread.start()
    }

    /// Stops watching; the changes seen.
    func stop() -> [Change] {
        lock.withLock { stopped = true }
        finished.wait()
        return lock.withLock { seen }
    }

    private var isStopped: Bool { lock.withLock { stopped } }
    private func note(_ change: Change) { lock.withLock { seen.append(change) } }

    private final class Box: @unchecked Sendable { weak var watcher: ScreenWatcher? }

    private static func watch(display: OpaquePointer, from start: Date, until stop: () -> Bool, noting: (Change) -> Void) {
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        // The viewer's window, at the screen's top left (the bench's screen may be larger).
        let width = min(1920, Int(XDisplayWidth(display, screen))), height = min(1080, Int(XDisplayHeight(display, screen)))
        var previous: [UInt32]?
        while !stop() {
            guard let image = XGetImage(display, root, 0, 0, UInt32(width), UInt32(height), UInt(bitPattern: -1), ZPixmap) else { break }
            let at = -start.timeIntervalSinceNow
            var pixels = [UInt32](repeating: 0, count: width * height / 4)
            let stride = Int(image.pointee.bytes_per_line)
            if image.pointee.bits_per_pixel == 32, let data = image.pointee.data {
                var i = 0
                for y in Swift.stride(from: 0, to: height, by: 2) {
                    let row = UnsafeRawPointer(data).advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in Swift.stride(from: 0, to: width - 1, by: 2) where i < pixels.count {
                        pixels[i] = row[x] & 0xFF_FFFF
                        i += 1
                    }
                }
            }
            _ = pz_XDestroyImage(image)
            if let previous, previous != pixels {
                var sum = 0.0
                for (a, b) in zip(previous, pixels) where a != b {
                    for shift in [0, 8, 16] as [UInt32] {
                        let d = Double(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))
                        sum += d * d
                    }
                }
                noting(Change(at: at, rmsePercent: (sum / Double(pixels.count * 3)).squareRoot() / 255 * 100))
            }
            previous = pixels
            usleep(2_000)
        }
    }
}
