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

func report(_ name: String, runs: Int, _ body: () -> Void) {
    let t = measure(runs: runs, body)
    print(String(format: "| %-58@ | %5d | %9.2f | %7.2f | %7.2f |", name as NSString, runs, t.median, t.min, t.max))
}
