import Testing
@testable import Session

/// A motion whose frames draw too slowly for the refresh is drawn for speed to its end, and the frame at
/// rest after it is drawn well.
struct MotionDrawQualityTests {
    let refresh = 1.0 / 60

    @Test func aSlowFrameInMotionTurnsTheRestOfTheMotionToSpeed() {
        var quality = MotionDrawQuality()
        quality.frameBegins(inMotion: true)
        quality.frameDrawn(inMotion: true, seconds: 0.008, interval: refresh)
        #expect(!quality.forSpeed, "8 ms of 16.7: within the budget")
        quality.frameDrawn(inMotion: true, seconds: 0.015, interval: refresh)
        #expect(quality.forSpeed, "15 ms of 16.7: the next frames are drawn for speed")
        quality.frameBegins(inMotion: true)
        quality.frameDrawn(inMotion: true, seconds: 0.004, interval: refresh)
        #expect(quality.forSpeed, "a fast frame drawn for speed does not turn the motion back halfway")
        #expect(!quality.redrawsWell(drawnForSpeed: true, pinching: false, inMotion: true), "no extra frames while it moves")
        #expect(quality.redrawsWell(drawnForSpeed: true, pinching: false, inMotion: false), "at rest: drawn again, well")
        quality.frameBegins(inMotion: false)
        #expect(!quality.forSpeed)
    }

    @Test func aSlowFrameAtRestChangesNothing() {
        var quality = MotionDrawQuality()
        quality.frameDrawn(inMotion: false, seconds: 0.040, interval: refresh)
        #expect(!quality.forSpeed)
        #expect(!quality.redrawsWell(drawnForSpeed: false, pinching: false, inMotion: false))
        #expect(!quality.redrawsWell(drawnForSpeed: true, pinching: true, inMotion: true), "a pinch draws for speed until it ends")
    }
}
