import CWaylandProtocols
import Geometry
import Input
import Testing
@testable import WaylandPlatform

/// wl_pointer, wl_touch and pinch-gesture events made by hand, as a compositor sends them (a headless
/// sway has no touchscreen or touchpad to make them), through the decoder the seat feeds.
@Suite struct WaylandInputDecoderTests {
    /// In points, the surface's own units, whatever the window's scale (the app works in points).
    @Test func aTouchFramesEventsComeTogetherInPointsAtTheirTimes() {
        var decoder = WaylandInputDecoder()
        decoder.touchDown(id: 7, x: 100, y: 50.5, time: 1000)
        decoder.touchMoved(id: 7, x: 110, y: 80, time: 1016)
        #expect(decoder.touchFrameEnded() == [
            .touch(.begin, id: 7, at: Point(x: 100, y: 50.5), time: 1.0),
            .touch(.update, id: 7, at: Point(x: 110, y: 80), time: 1.016),
        ])
        decoder.touchUp(id: 7, time: 1032)
        // wl_touch.up has no position: the finger ends where it was last.
        #expect(decoder.touchFrameEnded() == [.touch(.end, id: 7, at: Point(x: 110, y: 80), time: 1.032)])
        #expect(decoder.touchFrameEnded().isEmpty, "nothing until the next frame")
    }

    /// The compositor takes the fingers away (a gesture of its own): each finger still down is cancelled
    /// where it was, and the frame under way is dropped. The app springs a pulled photo back on it
    /// (`MotionFixTests.aCancelledTouchSequenceSpringsBack`).
    @Test func aCancelCancelsEveryFingerStillDown() {
        var decoder = WaylandInputDecoder()
        decoder.touchDown(id: 1, x: 10, y: 10, time: 500)
        decoder.touchDown(id: 2, x: 90, y: 10, time: 500)
        _ = decoder.touchFrameEnded()
        decoder.touchUp(id: 2, time: 520)
        _ = decoder.touchFrameEnded()
        decoder.touchMoved(id: 1, x: 10, y: 60, time: 540)
        #expect(decoder.touchCancelled() == [.touch(.cancel, id: 1, at: Point(x: 10, y: 10), time: 0.54)])
        #expect(decoder.touchFrameEnded().isEmpty, "the frame under way went with the cancel")
        #expect(decoder.touchCancelled().isEmpty, "no finger is left down")
        // A finger lifted and another put down in one frame: only the new one is down after it.
        decoder.touchDown(id: 3, x: 5, y: 5, time: 600)
        _ = decoder.touchFrameEnded()
        decoder.touchUp(id: 3, time: 610)
        decoder.touchDown(id: 4, x: 7, y: 7, time: 610)
        _ = decoder.touchFrameEnded()
        #expect(decoder.touchCancelled() == [.touch(.cancel, id: 4, at: Point(x: 7, y: 7), time: 0.61)])
    }

    @Test func aWheelClickIsNotchesAndATouchpadScrollIsSmooth() {
        var decoder = WaylandInputDecoder()
        decoder.pointerEntered(x: 30, y: 40)
        let vertical = WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, horizontal = WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue
        // A wheel click: the discrete step with its length (15) in one frame.
        decoder.axisDiscrete(vertical, steps: 1)
        decoder.axis(vertical, value: 15)
        #expect(decoder.pointerFrame(modifiers: [.control]) == .scroll(dx: 0, dy: 1, unit: .notches, at: Point(x: 30, y: 40), modifiers: [.control]))
        // Two fingers on a touchpad: surface units, ten to a step.
        decoder.axis(vertical, value: -25)
        decoder.axis(horizontal, value: 5)
        #expect(decoder.pointerFrame(modifiers: []) == .scroll(dx: 0.5, dy: -2.5, unit: .smooth, at: Point(x: 30, y: 40), modifiers: []))
        #expect(decoder.pointerFrame(modifiers: []) == nil, "a frame with no scroll")
    }

    /// Seat version 8 gives a wheel's turn in 120ths of a click: a high-resolution wheel's half click
    /// scrolls half a click's distance, and whole clicks stay whole.
    @Test func aHighResolutionWheelsPartsOfAClickAreThatPartOfANotch() {
        var decoder = WaylandInputDecoder()
        decoder.pointerEntered(x: 10, y: 20)
        let vertical = WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, horizontal = WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue
        decoder.axisValue120(vertical, value120: 60)
        decoder.axis(vertical, value: 7.5)
        #expect(decoder.pointerFrame(modifiers: []) == .scroll(dx: 0, dy: 0.5, unit: .notches, at: Point(x: 10, y: 20), modifiers: []))
        decoder.axisValue120(vertical, value120: -240)
        decoder.axisValue120(horizontal, value120: 120)
        #expect(decoder.pointerFrame(modifiers: []) == .scroll(dx: 1, dy: -2, unit: .notches, at: Point(x: 10, y: 20), modifiers: []))
    }

    @Test func buttonsAreXButtonNumbersWhereThePointerIs() {
        var decoder = WaylandInputDecoder()
        #expect(decoder.pointerMoved(x: 100, y: 20.25, time: 2000) == .pointerMove(to: Point(x: 100, y: 20.25), time: 2))
        #expect(decoder.button(0x110, pressed: true, time: 2010) == .pointerDown(at: Point(x: 100, y: 20.25), button: 1, time: 2.01))
        #expect(decoder.button(0x111, pressed: false, time: 2020) == .pointerUp(at: Point(x: 100, y: 20.25), button: 3, time: 2.02))
        #expect(decoder.button(0x112, pressed: true, time: 2030) == .pointerDown(at: Point(x: 100, y: 20.25), button: 2, time: 2.03))
        #expect(decoder.button(0x118, pressed: true, time: 2040) == nil, "a button the viewer has no use for")
    }

    @Test func aTouchpadPinchKeepsItsScaleToTheEnd() {
        var decoder = WaylandInputDecoder()
        decoder.pointerEntered(x: 50, y: 60)
        let at = Point(x: 50, y: 60)
        #expect(decoder.pinchBegan(time: 100) == .touchpadPinch(.begin, scale: 1, at: at, time: 0.1))
        #expect(decoder.pinchChanged(scale: 1.5, time: 116) == .touchpadPinch(.update, scale: 1.5, at: at, time: 0.116))
        #expect(decoder.pinchEnded(cancelled: false, time: 132) == .touchpadPinch(.end, scale: 1.5, at: at, time: 0.132))
        _ = decoder.pinchBegan(time: 200)
        _ = decoder.pinchChanged(scale: 0.8, time: 216)
        #expect(decoder.pinchEnded(cancelled: true, time: 232) == .touchpadPinch(.cancel, scale: 0.8, at: at, time: 0.232))
    }
}
