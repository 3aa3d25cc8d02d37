import Foundation

/// What a Wayland client asked of its compositor, as libwayland logs it with WAYLAND_DEBUG=client
/// (`[1234567.890]  -> wl_surface@25.commit()`): here, when each surface committed, that is, when a new
/// frame of it went to the compositor. A line's time is CLOCK_REALTIME in µs, cut to 32 bits, over 1000:
/// ms that start again every 71.6 minutes (read here as going on).
public struct WaylandRequestLog {
    /// The span of the log's clock, ms.
    static let wrap = 4_294_967.296

    /// Each surface's commits, ms, in order.
    public let commits: [String: [Double]]

    public init(path: String) throws {
        self.init(text: try String(contentsOfFile: path, encoding: .utf8))
    }

    /// `text`: the log, among other lines (a client's own stderr).
    public init(text: String) {
        var commits: [String: [Double]] = [:]
        var last = -Double.infinity, turns = 0.0
        for line in text.split(separator: "\n") {
            guard line.hasSuffix(".commit()"), line.first == "[", let close = line.firstIndex(of: "]"),
                  var time = Double(line[line.index(after: line.startIndex)..<close].drop { $0 == " " }),   // "%7u.%03u"
                  let arrow = line.range(of: "-> ") else { continue }
            if time + turns * Self.wrap < last - Self.wrap / 2 { turns += 1 }
            time += turns * Self.wrap
            last = time
            let surface = String(line[arrow.upperBound...].dropLast(".commit()".count))
            commits[surface, default: []].append(time)
        }
        self.commits = commits
    }

    /// The commits of the surface that committed most (a window's, in a walk), ms.
    public var busiestSurface: [Double] { commits.values.max { $0.count < $1.count } ?? [] }

    /// How frames sent to the compositor got there.
    public struct Delivery: Sendable {
        /// Frames sent.
        public let frames: Int
        /// Frames sent while a later one was sent before the next commit: never shown.
        public let dropped: Int
        /// Refreshes that passed with no new frame between two commits that carried frames (less than
        /// `gap` apart: within a motion).
        public let refreshesWithout: Int

        /// Both, in % of the refreshes the frames took.
        public var percent: Double { 100 * Double(dropped + refreshesWithout) / Double(max(1, frames + refreshesWithout)) }
    }

    /// Frames sent at `sent` (CLOCK_MONOTONIC s, in order), each carried to the compositor by `commits`'s
    /// first after it, at refreshes of `interval` ms. `realtimeAhead`: CLOCK_REALTIME less CLOCK_MONOTONIC, s.
    public static func delivery(of sent: [Double], by commits: [Double], realtimeAhead offset: Double, interval: Double,
                                gap: Double = 40) -> Delivery {
        guard let first = commits.first else { return Delivery(frames: sent.count, dropped: sent.count, refreshesWithout: 0) }   // none came
        // The log's ms for each frame, on the turn of its clock nearest the commits'.
        let stamped = sent.map { seconds -> Double in
            let time = ((seconds + offset) * 1e3).truncatingRemainder(dividingBy: wrap)
            return time + ((first - time) / wrap).rounded() * wrap
        }
        var carriers: [Int] = []   // the commits that carried frames, in order
        var index = 0
        for time in stamped {
            while index < commits.count, commits[index] < time { index += 1 }
            if index < commits.count, carriers.last != index { carriers.append(index) }
        }
        var without = 0
        for (a, b) in zip(carriers, carriers.dropFirst()) where commits[b] - commits[a] < gap {
            without += max(0, Int(((commits[b] - commits[a]) / interval).rounded()) - 1)
        }
        return Delivery(frames: sent.count, dropped: sent.count - carriers.count, refreshesWithout: without)
    }
}
