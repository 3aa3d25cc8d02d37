import Foundation

/// Runs `body` `runs` times after one warm-up and gives the median and the spread, in ms.
func measure(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, min: Double, max: Double) {
    try body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], times.first!, times.last!)
}

/// Prints a table row for `body`; returns its median, ms.
@discardableResult
func report(_ name: String, runs: Int, _ body: () throws -> Void) rethrows -> Double {
    let t = try measure(runs: runs, body)
    print(String(format: "| %-58@ | %5d | %9.2f | %7.2f | %7.2f |", name as NSString, runs, t.median, t.min, t.max))
    return t.median
}

/// Frames' worth of memory, copied one into another: what any frame costs at the least. The frames
/// rotate through more memory than the processor's caches hold, as a window's frames do.
final class FrameCopy {
    /// 16 frames of 1080p: 128 MiB, past any cache here.
    static let frames = 16
    private let buffers: [UnsafeMutableRawPointer]
    private let bytes: Int
    private var next = 0

    init(width: Int, height: Int) {
        bytes = width * height * 4
        buffers = (0..<FrameCopy.frames).map { _ in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
            buffer.initializeMemory(as: UInt8.self, repeating: 1, count: width * height * 4)
            return buffer
        }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    func copy() {
        buffers[(next + 1) % buffers.count].copyMemory(from: buffers[next], byteCount: bytes)
        next = (next + 2) % buffers.count
    }
}
