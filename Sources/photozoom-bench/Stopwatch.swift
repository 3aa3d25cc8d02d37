import Foundation

/// Runs `body` `runs` times after one warm-up and gives the median and the spread, in ms.
func measure(runs: Int, _ body: () -> Void) -> (median: Double, min: Double, max: Double) {
    body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], times.first!, times.last!)
}

/// Prints a table row for `body`; returns its median, ms.
@discardableResult
func report(_ name: String, runs: Int, _ body: () -> Void) -> Double {
    let t = measure(runs: runs, body)
    print(String(format: "| %-58@ | %5d | %9.2f | %7.2f | %7.2f |", name as NSString, runs, t.median, t.min, t.max))
    return t.median
}

/// Two frames' worth of memory, copied one into the other: what any frame costs at the least.
final class FrameCopy {
    private let from: UnsafeMutableRawPointer, to: UnsafeMutableRawPointer
    private let bytes: Int

    init(width: Int, height: Int) {
        bytes = width * height * 4
        from = .allocate(byteCount: bytes, alignment: 64)
        to = .allocate(byteCount: bytes, alignment: 64)
        from.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        to.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit { from.deallocate(); to.deallocate() }

    func copy() { to.copyMemory(from: from, byteCount: bytes) }
}
