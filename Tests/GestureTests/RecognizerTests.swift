import Testing
@testable import Geometry
@testable import Gestures

/// Scripted pointer input for one `GestureCenter`.
final class Finger {
    let center: GestureCenter
    var time = 0.0
    init(_ center: GestureCenter) { self.center = center }

    func down(_ x: Double, _ y: Double, id: Int = 0) { center.handle(PointerEvent(.down, id: id, at: Point(x: x, y: y), time: time)) }
    func move(_ x: Double, _ y: Double, id: Int = 0) { center.handle(PointerEvent(.move, id: id, at: Point(x: x, y: y), time: time)) }
    func up(_ x: Double, _ y: Double, id: Int = 0) { center.handle(PointerEvent(.up, id: id, at: Point(x: x, y: y), time: time)) }
    func cancel(id: Int = 0) { center.handle(PointerEvent(.cancel, id: id, at: .zero, time: time)) }
    func wait(_ seconds: Double) { time += seconds; center.advance(to: time) }
    func tap(_ x: Double, _ y: Double) { down(x, y); time += 0.08; up(x, y) }
}

@Suite struct TapTests {
    @Test func tapWithinSlopIsRecognized() {
        let center = GestureCenter(), tap = TapRecognizer()
        center.add(tap)
        var taps = 0
        tap.onRecognized = { _ in taps += 1 }
        let f = Finger(center)
        f.down(100, 100); f.time += 0.05; f.move(106, 104); f.time += 0.05; f.up(106, 104)
        #expect(tap.state == .recognized && taps == 1)
        #expect(tap.location == Point(x: 100, y: 100))
    }

    @Test func movingPastTheSlopIsADragNotATap() {
        let center = GestureCenter(), tap = TapRecognizer(), pan = PanRecognizer()
        center.add(tap); center.add(pan)
        let f = Finger(center)
        f.down(100, 100); f.time += 0.05; f.move(100, 109)
        #expect(pan.state == .possible && tap.state == .possible)
        f.time += 0.02; f.move(100, 112)
        #expect(pan.state == .began && tap.state == .failed)
        #expect(pan.translation == Point(x: 0, y: 12))
        f.time += 0.02; f.up(100, 130)
        #expect(pan.state == .ended && tap.state == .failed)
    }

    @Test func longPressIsNotATap() {
        let center = GestureCenter(), tap = TapRecognizer()
        center.add(tap)
        let f = Finger(center)
        f.down(10, 10); f.time += 0.6; f.up(10, 10)
        #expect(tap.state == .failed)
    }

    @Test func doubleTapNeedsTheSecondTapSoonAndNear() {
        let center = GestureCenter(), double = TapRecognizer(taps: 2)
        center.add(double)
        let f = Finger(center)
        f.tap(100, 100); f.time += 0.2; f.tap(110, 110)
        #expect(double.state == .recognized)

        f.wait(1); f.tap(100, 100); f.time += 0.35; f.tap(100, 100)            // too late
        #expect(double.state != .recognized)
        f.wait(1); f.tap(100, 100); f.time += 0.1; f.tap(140, 100)              // too far
        #expect(double.state != .recognized)
        f.wait(1); f.tap(100, 100); f.wait(0.31)                                // no second tap at all
        #expect(double.state == .failed)
    }

    @Test func singleTapWaitsForTheDoubleTapToFail() {
        let center = GestureCenter(), single = TapRecognizer(taps: 1), double = TapRecognizer(taps: 2)
        single.requireToFail(double)
        center.add(single); center.add(double)
        var singles = 0, doubles = 0
        single.onRecognized = { _ in singles += 1 }
        double.onRecognized = { _ in doubles += 1 }
        let f = Finger(center)

        f.tap(50, 50)
        #expect(singles == 0, "not yet: a second tap may come")
        f.wait(0.2)
        #expect(singles == 0)
        f.wait(0.15)
        #expect(singles == 1 && doubles == 0)

        f.wait(1)
        f.tap(50, 50); f.time += 0.15; f.tap(52, 50)
        f.wait(0.5)
        #expect(doubles == 1)
        #expect(singles == 1, "a double tap is not also a single tap")
    }
}

@Suite struct PanTests {
    @Test func reportsTranslationAndReleaseVelocity() {
        let center = GestureCenter(), pan = PanRecognizer()
        center.add(pan)
        let f = Finger(center)
        f.down(200, 100)
        for i in 1...20 { f.time += 0.01; f.move(200, 100 + Double(i) * 10) }   // 1000 px/s down
        f.up(200, 300)
        #expect(pan.state == .ended)
        #expect(pan.translation == Point(x: 0, y: 200))
        #expect(abs(pan.velocity.y - 1000) < 30)
    }

    @Test func locksToTheDominantAxis() {
        let center = GestureCenter(), pan = PanRecognizer()
        pan.locksAxis = true
        center.add(pan)
        let f = Finger(center)
        f.down(100, 100); f.time += 0.01; f.move(112, 103); f.time += 0.01; f.move(150, 130)
        #expect(pan.lockedAxis == .horizontal)
        #expect(pan.translation == Point(x: 50, y: 0))
    }

    @Test func secondFingerCancelsAPan() {
        let center = GestureCenter(), pan = PanRecognizer()
        var states: [GestureState] = []
        pan.onChange = { states.append($0.state) }
        center.add(pan)
        let f = Finger(center)
        f.down(100, 100, id: 1); f.time += 0.02; f.move(100, 130, id: 1)
        f.down(200, 200, id: 2)
        #expect(states == [.began, .cancelled])
    }

    @Test func systemCancelEndsAsCancelled() {
        let center = GestureCenter(), pan = PanRecognizer()
        center.add(pan)
        let f = Finger(center)
        f.down(100, 100); f.time += 0.02; f.move(100, 150); f.cancel()
        #expect(pan.state == .cancelled)
    }
}

@Suite struct PinchTests {
    @Test func theRotationIsTheTurnOfTheLineThroughTheFingersClockwiseOnScreen() {
        let center = GestureCenter(), pinch = PinchRecognizer()
        center.add(pinch)
        let f = Finger(center)
        f.down(100, 100, id: 0); f.down(200, 100, id: 1)
        f.time += 0.016; f.move(150, 50, id: 0); f.move(150, 150, id: 1)   // vertical now: a quarter clockwise
        #expect(abs(pinch.rotation - .pi / 2) < 1e-9 && abs(pinch.scale - 1) < 1e-9)
        f.time += 0.016; f.move(200, 110, id: 0); f.move(100, 90, id: 1)   // past half a turn: −169°, not +191°
        #expect(pinch.rotation < -2.9 && pinch.rotation > -3)
    }

    @Test func scaleAndCentreFollowTwoFingers() {
        let center = GestureCenter(), pinch = PinchRecognizer()
        center.add(pinch)
        let f = Finger(center)
        f.down(100, 200, id: 1); f.down(300, 200, id: 2)
        #expect(pinch.state == .began && pinch.scale == 1)
        f.move(0, 200, id: 1); f.move(400, 200, id: 2)
        #expect(pinch.state == .changed && pinch.scale == 2)
        #expect(pinch.center == Point(x: 200, y: 200))
        f.move(150, 250, id: 1); f.move(250, 250, id: 2)
        #expect(pinch.scale == 0.5 && pinch.center == Point(x: 200, y: 250))
        f.up(250, 250, id: 2)
        #expect(pinch.state == .ended)
    }
}

@Suite struct LongPressTests {
    func make() -> (LongPressRecognizer, Finger, () -> [GestureState]) {
        let center = GestureCenter(), press = LongPressRecognizer()
        center.add(press)
        var states: [GestureState] = []
        press.onChange = { states.append($0.state) }
        return (press, Finger(center), { states })
    }

    @Test func heldStillItBeginsAtItsTimeThenFollowsAndEnds() {
        let (press, f, states) = make()
        f.down(100, 100)
        #expect(press.isWaiting)
        f.wait(0.3); f.move(104, 103)   // within the slop
        f.wait(0.19)
        #expect(press.state == .possible)
        f.wait(0.02)
        #expect(press.state == .began && !press.isWaiting && press.startLocation == Point(x: 100, y: 100))
        f.move(300, 50)
        #expect(press.state == .changed && press.location == Point(x: 300, y: 50))
        f.up(320, 40)
        #expect(states() == [.began, .changed, .ended] && press.location == Point(x: 320, y: 40))
    }

    @Test func aMovePastTheSlopALiftOrASecondFingerBeforeItsTimeFailIt() {
        let (press, f, states) = make()
        f.down(100, 100); f.time += 0.1; f.move(100, 115); f.wait(1)
        #expect(press.state == .failed)
        f.up(100, 115)
        f.down(100, 100); f.time += 0.2; f.up(100, 100); f.wait(1)
        #expect(press.state == .failed)
        f.down(100, 100); f.time += 0.1; f.down(150, 100, id: 1); f.wait(1)
        #expect(press.state == .failed && states().isEmpty)
    }

    @Test func anEventLateAfterItsTimeBeginsItFirst() {
        let (press, f, states) = make()
        f.down(100, 100)
        f.time += 0.7   // no time passed in between (a loop that slept): the next event is late
        f.move(200, 100)
        #expect(states() == [.began, .changed])
    }

    @Test func aSecondFingerAfterItBeganCancelsIt() {
        let (press, f, states) = make()
        f.down(100, 100); f.wait(0.6)
        f.down(180, 100, id: 1)
        #expect(press.state == .cancelled && states() == [.began, .cancelled])
    }
}

