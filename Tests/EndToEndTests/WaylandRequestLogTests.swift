import Testing
import TestSupport

/// The reading of a Wayland client's logged requests that the sway test and the Xwayland bench count on.
struct WaylandRequestLogTests {
    @Test func commitsAreReadPerSurfaceAcrossTheLogsClockTurningOver() {
        let log = WaylandRequestLog(text: """
            photozoom: window 0x400001 1920x1080
            [4294960.000]  -> wl_surface@25.attach(wl_buffer@40, 0, 0)
            [4294960.100]  -> wl_surface@25.commit()
            [4294961.000]  -> wl_surface@31.commit()
            [4294967.000]  -> wl_surface@25.commit()
            [      3.704]  -> wl_surface@25.commit()
            [      4.000] wl_callback@23.done(31928166)
            """)
        #expect(log.commits["wl_surface@31"] == [4294961])
        let turned = log.busiestSurface.map { ($0 * 1000).rounded() / 1000 }
        #expect(turned == [4294960.1, 4294967, 4294971])
    }

    /// Five frames, one followed by another before any commit (never shown), and a refresh between two
    /// commits with no frame.
    @Test func eachFrameIsCarriedByTheFirstCommitAfterIt() {
        let commits = [10.0, 17, 24, 38]
        let sent = [0.009, 0.016, 0.0165, 0.023, 0.037]   // CLOCK_MONOTONIC s, the realtime clock 0 s ahead
        let delivery = WaylandRequestLog.delivery(of: sent, by: commits, realtimeAhead: 0, interval: 7)
        #expect((delivery.frames, delivery.dropped, delivery.refreshesWithout) == (5, 1, 1))
        #expect(abs(delivery.percent - 100 * 2 / 6) < 1e-9)
    }
}
