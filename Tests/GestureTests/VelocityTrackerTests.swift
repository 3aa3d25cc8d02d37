import Testing
@testable import Geometry
@testable import Gestures

@Suite struct VelocityTrackerTests {
    /// A drag at a constant speed, sampled at 60 Hz (with jitter in the timestamps, as X gives ms).
    @Test(arguments: [Point(x: 0, y: 1200), Point(x: -800, y: 300), Point(x: 50, y: -20)])
    func constantSpeedIsMeasured(_ speed: Point) {
        var tracker = VelocityTracker()
        for i in 0...30 {
            let t = (Double(i) * 16.7).rounded() / 1000
            tracker.add(Point(x: 100 + speed.x * t, y: 200 + speed.y * t), at: t)
        }
        let v = tracker.velocity()
        #expect((v - speed).magnitude < speed.magnitude * 0.03 + 1, "\(v) vs \(speed)")
    }

    @Test func stoppingBeforeReleaseGivesAboutZero() {
        var tracker = VelocityTracker()
        var t = 0.0, y = 0.0
        for _ in 0..<20 { t += 0.016; y += 20; tracker.add(Point(x: 0, y: y), at: t) }   // 1250 px/s
        #expect(tracker.velocity().y > 1000)
        for _ in 0..<10 { t += 0.016; tracker.add(Point(x: 0, y: y), at: t) }           // holds still 160 ms
        #expect(abs(tracker.velocity().y) < 1)
        // No motion events at all while still, then the release 150 ms later.
        var quiet = VelocityTracker()
        t = 0; y = 0
        for _ in 0..<20 { t += 0.016; y += 20; quiet.add(Point(x: 0, y: y), at: t) }
        #expect(abs(quiet.velocity(at: t + 0.15).y) < 1)
    }

    @Test func tooFewSamplesGiveZero() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity() == .zero)
        tracker.add(Point(x: 5, y: 5), at: 1)
        #expect(tracker.velocity() == .zero)
    }
}
