import CX11
import Geometry
import Input
import Testing
@testable import X11Platform

/// XI2 events built by hand, as the server would send them (Xvfb has no touch or smooth-scroll device).
final class EventFactory {
    /// The valuator masks and values the events point to, freed with the factory.
    private var buffers: [UnsafeMutableRawPointer] = []

    deinit { buffers.forEach { $0.deallocate() } }

    /// An XIDeviceEvent; `valuators` maps valuator numbers to values.
    func event(_ type: Int32, detail: Int32 = 0, x: Double = 0, y: Double = 0, time: UInt = 1000,
               flags: Int32 = 0, source: Int32 = 11, valuators: [Int32: Double] = [:]) -> XIDeviceEvent {
        var e = XIDeviceEvent()
        e.type = GenericEvent
        e.evtype = type
        e.detail = detail
        e.event_x = x
        e.event_y = y
        e.time = Time(time)
        e.flags = flags
        e.deviceid = 2
        e.sourceid = source
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
        mask.initialize(repeating: 0, count: 4)
        for n in valuators.keys { mask[Int(n) >> 3] |= UInt8(1 << (Int(n) & 7)) }
        let numbers = valuators.keys.sorted()
        let values = UnsafeMutablePointer<Double>.allocate(capacity: max(1, numbers.count))
        for (i, n) in numbers.enumerated() { values[i] = valuators[n]! }
        buffers += [UnsafeMutableRawPointer(mask), UnsafeMutableRawPointer(values)]
        e.valuators.mask = mask
        e.valuators.values = values
        e.valuators.mask_len = 4
        return e
    }
}

@Suite struct XI2DecoderTests {
    let make = EventFactory()

    @Test func buttonsAndMotion() {
        var d = XI2Decoder()
        #expect(d.decode(make.event(XI_ButtonPress, detail: 1, x: 10.5, y: 20, time: 5000))
            == .pointerDown(at: Point(x: 10.5, y: 20), button: 1, time: 5))
        #expect(d.decode(make.event(XI_Motion, x: 12, y: 30, time: 5016)) == .pointerMove(to: Point(x: 12, y: 30), time: 5.016))
        #expect(d.decode(make.event(XI_ButtonRelease, detail: 1, x: 12, y: 30, time: 5032))
            == .pointerUp(at: Point(x: 12, y: 30), button: 1, time: 5.032))
    }

    @Test func touchesKeepTheirIDs() {
        var d = XI2Decoder()
        #expect(d.decode(make.event(XI_TouchBegin, detail: 7, x: 100, y: 200, time: 10))
            == .touch(.begin, id: 7, at: Point(x: 100, y: 200), time: 0.01))
        #expect(d.decode(make.event(XI_TouchUpdate, detail: 7, x: 100, y: 250, time: 26))
            == .touch(.update, id: 7, at: Point(x: 100, y: 250), time: 0.026))
        #expect(d.decode(make.event(XI_TouchBegin, detail: 8, x: 300, y: 200, time: 27))
            == .touch(.begin, id: 8, at: Point(x: 300, y: 200), time: 0.027))
        #expect(d.decode(make.event(XI_TouchEnd, detail: 7, x: 100, y: 260, time: 40))
            == .touch(.end, id: 7, at: Point(x: 100, y: 260), time: 0.04))
    }

    @Test func touchpadPinchesGiveTheirScaleAndThePointer() {
        let d = XI2Decoder()
        func pinch(_ type: Int32, scale: Double, flags: Int32 = 0, time: UInt) -> XIGesturePinchEvent {
            var e = XIGesturePinchEvent()
            e.type = GenericEvent
            e.evtype = type
            e.scale = scale
            e.event_x = 320
            e.event_y = 200.5
            e.flags = flags
            e.time = Time(time)
            return e
        }
        let at = Point(x: 320, y: 200.5)
        #expect(d.decode(pinch(XI_GesturePinchBegin, scale: 1, time: 100)) == .touchpadPinch(.begin, scale: 1, at: at, time: 0.1))
        #expect(d.decode(pinch(XI_GesturePinchUpdate, scale: 1.7, time: 116)) == .touchpadPinch(.update, scale: 1.7, at: at, time: 0.116))
        #expect(d.decode(pinch(XI_GesturePinchEnd, scale: 1.8, time: 132)) == .touchpadPinch(.end, scale: 1.8, at: at, time: 0.132))
        #expect(d.decode(pinch(XI_GesturePinchEnd, scale: 1.2, flags: Int32(XIGesturePinchEventCancelled), time: 140))
            == .touchpadPinch(.cancel, scale: 1.2, at: at, time: 0.14))
    }

    @Test func pointerEventsEmulatedFromATouchAreDropped() {
        var d = XI2Decoder()
        let emulated = Int32(XIPointerEmulated)
        #expect(d.decode(make.event(XI_ButtonPress, detail: 1, flags: emulated)) == nil)
        #expect(d.decode(make.event(XI_Motion, x: 5, y: 5, flags: emulated)) == nil)
        #expect(d.decode(make.event(XI_ButtonRelease, detail: 1, flags: emulated)) == nil)
    }

    @Test func smoothScrollValuatorsBecomeScrollUnitsAndEmulatedWheelButtonsAreDropped() {
        var d = XI2Decoder()
        // A touchpad: valuator 2 horizontal, 3 vertical, 15 units a notch.
        d.scrollValuators[11] = [2: .init(vertical: false, increment: 15), 3: .init(vertical: true, increment: 15)]
        #expect(d.decode(make.event(XI_Motion, x: 50, y: 60, valuators: [3: 300])) == nil, "first position: no step yet")
        #expect(d.decode(make.event(XI_Motion, x: 50, y: 60, valuators: [3: 330]))
            == .scroll(dx: 0, dy: 2, unit: .notches, at: Point(x: 50, y: 60), modifiers: []))
        #expect(d.decode(make.event(XI_Motion, x: 50, y: 60, valuators: [2: 0, 3: 322.5]))
            == .scroll(dx: 0, dy: -0.5, unit: .smooth, at: Point(x: 50, y: 60), modifiers: []))
        #expect(d.decode(make.event(XI_Motion, x: 50, y: 60, valuators: [2: -30, 3: 322.5]))
            == .scroll(dx: -2, dy: 0, unit: .notches, at: Point(x: 50, y: 60), modifiers: []))
        // The legacy button the server emulates from that scrolling.
        #expect(d.decode(make.event(XI_ButtonPress, detail: 5, flags: Int32(XIPointerEmulated))) == nil)
        // Motion on the pointer axes of the same device is still motion.
        #expect(d.decode(make.event(XI_Motion, x: 51, y: 61, valuators: [0: 51, 1: 61]))
            == .pointerMove(to: Point(x: 51, y: 61), time: 1))
        // After the pointer re-enters, the valuator may have jumped: no step from that.
        d.resetScrollPositions(device: 11)
        #expect(d.decode(make.event(XI_Motion, valuators: [3: 9000])) == nil)
    }

    @Test func aWheelWithoutScrollValuatorsGivesNotches() {
        var d = XI2Decoder()
        #expect(d.decode(make.event(XI_ButtonPress, detail: 5, x: 1, y: 2)) == .scroll(dx: 0, dy: 1, unit: .notches, at: Point(x: 1, y: 2), modifiers: []))
        #expect(d.decode(make.event(XI_ButtonRelease, detail: 5)) == nil)
        #expect(d.decode(make.event(XI_ButtonPress, detail: 4)) == .scroll(dx: 0, dy: -1, unit: .notches, at: .zero, modifiers: []))
        #expect(d.decode(make.event(XI_ButtonPress, detail: 7)) == .scroll(dx: 1, dy: 0, unit: .notches, at: .zero, modifiers: []))
    }
}

@Suite struct DesktopScaleTests {
    @Test func xftDpiGivesTheScaleToAQuarter() {
        #expect(DesktopScale.scale(fromResources: "Xft.antialias:\t1\nXft.dpi:\t192\n") == 2)
        #expect(DesktopScale.scale(fromResources: "Xft.dpi: 144") == 1.5)
        #expect(DesktopScale.scale(fromResources: "Xft.dpi:\t120\n") == 1.25)
        #expect(DesktopScale.scale(fromResources: "Xft.dpi:\t96\n") == 1)
        #expect(DesktopScale.scale(fromResources: "Xft.dpi:\t72\n") == 1, "never below 1")
        #expect(DesktopScale.scale(fromResources: "Xcursor.size: 24\n") == 1)
    }

    @Test func gdkScaleComesFirst() {
        #expect(DesktopScale.detect(displayName: ":nonexistent", environment: ["GDK_SCALE": "2"]) == 2)
        #expect(DesktopScale.detect(displayName: "nonexistent:99", environment: [:]) == 1, "no display: 1")
    }
}
