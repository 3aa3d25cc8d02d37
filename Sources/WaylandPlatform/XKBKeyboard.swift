import CXKBCommon
import Glibc
import Input

/// The keymap the compositor sends (xkbcommon) and the keyboard's state in it: key codes to X keysym
/// names (the names `InputEvent.key` carries, as on X11) and the modifiers held.
final class XKBKeyboard {
    private let context: OpaquePointer
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?

    init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        self.context = context
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_context_unref(context)
    }

    /// A keymap in text (XKB_KEYMAP_FORMAT_TEXT_V1) from `fd`, `size` bytes with its closing NUL;
    /// false when it can't be read (the keys then say nothing).
    func load(fd: Int32, size: Int) -> Bool {
        defer { close(fd) }
        guard size > 0, let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return false }
        defer { munmap(map, size) }
        guard let keymap = xkb_keymap_new_from_string(context, map.assumingMemoryBound(to: CChar.self),
                                                      XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let state = xkb_state_new(keymap) else { return false }
        if let old = self.state { xkb_state_unref(old) }
        if let old = self.keymap { xkb_keymap_unref(old) }
        self.keymap = keymap
        self.state = state
        return true
    }

    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The key with evdev code `key` as the keysym name it types now (`q`, `question`, `Escape`, `F11`).
    func name(ofKey key: UInt32) -> String? {
        guard let state else { return nil }
        let keysym = xkb_state_key_get_one_sym(state, key + 8)   // evdev codes are X key codes less 8
        guard keysym != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether holding `key` repeats it (the keymap says; modifiers don't).
    func repeats(key: UInt32) -> Bool {
        guard let keymap else { return false }
        return xkb_keymap_key_repeats(keymap, key + 8) != 0
    }

    var modifiers: Modifiers {
        guard let state else { return [] }
        var held: Modifiers = []
        for (name, modifier) in [(XKB_MOD_NAME_SHIFT, Modifiers.shift), (XKB_MOD_NAME_CTRL, .control), (XKB_MOD_NAME_ALT, .alt)]
        where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            held.insert(modifier)
        }
        return held
    }
}
