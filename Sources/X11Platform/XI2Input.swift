import CX11
import Input

/// The window's XInput 2.2 input: selects pointer, touch and device-change events (and touchpad
/// pinches where the server speaks XI 2.4), learns each device's scroll valuators, and decodes the
/// event cookies. Nil when the server lacks XI 2.2; the window then takes core events.
final class XI2Input {
    private let display: OpaquePointer
    private let opcode: Int32
    private var decoder = XI2Decoder()

    init?(display: OpaquePointer, window: Window) {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return nil }
        // The server answers with the highest version both sides speak.
        var major: Int32 = 2, minor: Int32 = 4
        guard XIQueryVersion(display, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else { return nil }
        self.display = display
        self.opcode = opcode

        // Touch begin, update and end must be selected together; gesture events only exist from 2.4.
        let gestures = major > 2 || minor >= 4 ? [XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd] : []
        select(display, window, [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_Enter,
                                 XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] + gestures)
        // Hierarchy changes may only be selected for all devices (XI2 spec; Xwayland says BadValue otherwise);
        // device changes stay the master devices' (a slave switch is one), as before.
        select(display, XDefaultRootWindow(display), [XI_DeviceChanged])
        select(display, XDefaultRootWindow(display), [XI_HierarchyChanged], devices: XIAllDevices)
        refreshScrollValuators()
    }

    /// Decodes a device event that did not come from the server (a scripted touch).
    func decode(_ event: XIDeviceEvent) -> InputEvent? { decoder.decode(event) }

    /// Decodes a touchpad pinch that did not come from the server (a scripted one).
    func decode(_ event: XIGesturePinchEvent) -> InputEvent? { decoder.decode(event) }

    /// Decodes a GenericEvent if it is one of ours (nil otherwise, or when it is dropped).
    func translate(_ event: inout XEvent) -> InputEvent? {
        var cookie = event.xcookie
        guard cookie.extension == opcode, XGetEventData(display, &cookie) != 0 else { return nil }
        defer { XFreeEventData(display, &cookie) }
        switch cookie.evtype {
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            return decoder.decode(cookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee)
        case XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd:
            return decoder.decode(cookie.data.assumingMemoryBound(to: XIGesturePinchEvent.self).pointee)
        case XI_Enter:
            decoder.resetScrollPositions(device: cookie.data.assumingMemoryBound(to: XIEnterEvent.self).pointee.sourceid)
            return nil
        case XI_DeviceChanged, XI_HierarchyChanged:
            refreshScrollValuators()
            return nil
        default:
            return nil
        }
    }

    private func refreshScrollValuators() {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return }
        defer { XIFreeDeviceInfo(devices) }
        decoder.scrollValuators = [:]
        for d in 0..<Int(count) {
            let device = devices[d]
            for c in 0..<Int(device.num_classes) {
                guard let info = device.classes[c], info.pointee.type == XIScrollClass else { continue }
                let scroll = UnsafeRawPointer(info).assumingMemoryBound(to: XIScrollClassInfo.self).pointee
                decoder.scrollValuators[device.deviceid, default: [:]][scroll.number] =
                    XI2Decoder.ScrollValuator(vertical: scroll.scroll_type == XIScrollTypeVertical,
                                              increment: scroll.increment)
            }
            decoder.resetScrollPositions(device: device.deviceid)
        }
    }

    private func select(_ display: OpaquePointer, _ window: Window, _ events: [Int32], devices: Int32 = XIAllMasterDevices) {
        var mask = [UInt8](repeating: 0, count: Int(pz_XIMaskLen(XI_LASTEVENT)))
        for e in events { pz_XISetMask(&mask, e) }
        mask.withUnsafeMutableBufferPointer { bytes in
            var eventMask = XIEventMask(deviceid: devices, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
            _ = XISelectEvents(display, window, &eventMask, 1)
        }
    }
}
