import CX11
import Geometry
import Input

/// XInput 2.2 device events to platform-free ones: pointer motion and buttons, smooth scrolling
/// from scroll valuators, and touches; and XI 2.4 touchpad pinches. A function of the event struct and of what it remembers of
/// each device's scroll valuators, so that it is tested with constructed events (Xvfb has no
/// touch device and no smooth-scroll wheel).
///
/// Dropped: pointer events the server emulates from a touch, and the legacy wheel buttons 4–7 it
/// emulates from smooth scrolling (both flagged `XIPointerEmulated`).
public struct XI2Decoder {
    public struct ScrollValuator: Equatable, Sendable {
        public let vertical: Bool
        /// Valuator units per scroll unit (one wheel notch).
        public let increment: Double
        public init(vertical: Bool, increment: Double) { self.vertical = vertical; self.increment = increment }
    }

    /// Scroll valuators of each source device, by valuator number (from XIQueryDevice).
    public var scrollValuators: [Int32: [Int32: ScrollValuator]] = [:]
    /// The last value of each device's scroll valuators: the server reports positions, we want steps.
    private var lastValues: [Int32: [Int32: Double]] = [:]

    public init() {}

    /// Forgets the scroll positions of `device` (on enter and device change, where they jump).
    public mutating func resetScrollPositions(device: Int32) { lastValues[device] = nil }

    public mutating func decode(_ e: XIDeviceEvent) -> InputEvent? {
        let at = Point(x: e.event_x, y: e.event_y)
        let time = serverSeconds(e.time)
        let emulated = e.flags & Int32(XIPointerEmulated) != 0
        switch e.evtype {
        case XI_ButtonPress, XI_ButtonRelease:
            guard !emulated else { return nil }
            let press = e.evtype == XI_ButtonPress
            switch e.detail {
            case 4...7:   // a wheel without scroll valuators: one notch a press
                guard press else { return nil }
                let dy: Double = e.detail == 4 ? -1 : e.detail == 5 ? 1 : 0
                let dx: Double = e.detail == 6 ? -1 : e.detail == 7 ? 1 : 0
                return .scroll(dx: dx, dy: dy, unit: .notches, at: at, modifiers: modifiers(e))
            default:
                return press ? .pointerDown(at: at, button: Int(e.detail), time: time)
                    : .pointerUp(at: at, button: Int(e.detail), time: time)
            }
        case XI_Motion:
            guard !emulated else { return nil }
            if let scroll = scrollDelta(e) {
                // A mouse wheel's valuator moves a whole increment a click; a touchpad's, in fractions.
                let unit: ScrollUnit = scroll.dx == scroll.dx.rounded() && scroll.dy == scroll.dy.rounded() ? .notches : .smooth
                return scroll == (0, 0) ? nil : .scroll(dx: scroll.dx, dy: scroll.dy, unit: unit, at: at, modifiers: modifiers(e))
            }
            return .pointerMove(to: at, time: time)
        case XI_TouchBegin: return .touch(.begin, id: Int(e.detail), at: at, time: time)
        case XI_TouchUpdate: return .touch(.update, id: Int(e.detail), at: at, time: time)
        case XI_TouchEnd: return .touch(.end, id: Int(e.detail), at: at, time: time)
        default: return nil
        }
    }

    /// The scroll this motion carries, in scroll units; nil when it moves no scroll valuator.
    private mutating func scrollDelta(_ e: XIDeviceEvent) -> (dx: Double, dy: Double)? {
        guard let axes = scrollValuators[e.sourceid], !axes.isEmpty else { return nil }
        var dx = 0.0, dy = 0.0, found = false
        for (number, value) in XI2Decoder.valuators(e.valuators) {
            guard let axis = axes[number] else { continue }
            found = true
            defer { lastValues[e.sourceid, default: [:]][number] = value }
            guard let last = lastValues[e.sourceid]?[number], axis.increment != 0 else { continue }
            let step = (value - last) / axis.increment
            if axis.vertical { dy += step } else { dx += step }
        }
        return found ? (dx, dy) : nil
    }

    /// The (valuator number, value) pairs set in an event's mask, in order.
    static func valuators(_ state: XIValuatorState) -> [(Int32, Double)] {
        guard let mask = state.mask, let values = state.values else { return [] }
        var out: [(Int32, Double)] = []
        var next = 0
        for bit in 0..<(Int(state.mask_len) * 8) where mask[bit >> 3] & UInt8(1 << (bit & 7)) != 0 {
            out.append((Int32(bit), values[next]))
            next += 1
        }
        return out
    }

    /// A touchpad pinch (XI 2.4); a cancelled end (the fingers became a scroll, say) cancels.
    public func decode(_ e: XIGesturePinchEvent) -> InputEvent? {
        let at = Point(x: e.event_x, y: e.event_y), time = serverSeconds(e.time)
        switch e.evtype {
        case XI_GesturePinchBegin: return .touchpadPinch(.begin, scale: e.scale, at: at, time: time)
        case XI_GesturePinchUpdate: return .touchpadPinch(.update, scale: e.scale, at: at, time: time)
        case XI_GesturePinchEnd:
            let cancelled = e.flags & Int32(XIGesturePinchEventCancelled) != 0
            return .touchpadPinch(cancelled ? .cancel : .end, scale: e.scale, at: at, time: time)
        default: return nil
        }
    }

    private func modifiers(_ e: XIDeviceEvent) -> Modifiers {
        X11InputTranslator.modifiers(UInt32(truncatingIfNeeded: e.mods.effective))
    }
}
