import App
import Foundation
import Glibc
import Logging

/// Logs each launch milestone once, when a frame that shows it is on screen, with the time since the
/// process started (read from /proc, so the time before `main` counts too).
struct LaunchLog {
    private(set) var logged: Set<LaunchMilestone> = []

    /// Whether every milestone was logged.
    var isComplete: Bool { logged.count == LaunchMilestone.allCases.count }
    private let started = LaunchLog.processStart()

    /// A frame that shows the milestones `reached` is on screen.
    mutating func frameShown(reaching reached: Set<LaunchMilestone>, logger: Logger) {
        for milestone in LaunchMilestone.allCases where reached.contains(milestone) && !logged.contains(milestone) {
            logged.insert(milestone)
            let ms = started.map { String(format: "%.0f ms", (LaunchLog.bootTime() - $0) * 1000) } ?? "?"
            logger.debug("\(milestone.rawValue) after \(ms)")
        }
    }

    /// Seconds since boot at which this process started (field 22 of /proc/self/stat, in clock ticks).
    private static func processStart() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // The fields after the command name (which may hold spaces) start with field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func bootTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
