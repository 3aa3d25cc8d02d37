/// What each key does: the one table that the key handler, the `?` card and README's key table are
/// made from (a test holds README to it).
struct KeyBinding {
    enum Action: Equatable {
        case quit, screenshot, record, copy, slowMotion, debugOverlay, help, fullScreen
        /// Into the grid, from wherever the photo is.
        case close
        /// Open the grid's selection; reopen a photo on its way into its cell.
        case open
        /// Arrows, Home, End: the grid's selection, the pages, a zoomed photo.
        case move
        /// `+ - 0 1`: the open photo's zoom.
        case zoom
        /// `space`: an animation plays or pauses; otherwise as `open`.
        case playPause
    }

    /// X keysym names.
    let keys: [String]
    /// Whether Ctrl must be held (Ctrl+C); the other keys work with or without it.
    var needsControl = false
    /// The keys as the card and README show them.
    let label: String
    let action: Action
    /// For the card.
    let summary: String
    /// For README's key table.
    let detail: String

    static let all: [KeyBinding] = [
        KeyBinding(keys: ["q"], label: "`q`", action: .quit, summary: "quit",
                   detail: "quit (status 0; so does the window manager's close button)"),
        KeyBinding(keys: ["s"], label: "`s`", action: .screenshot, summary: "save a screenshot",
                   detail: "save a screenshot `photozoom-YYYYMMDD-HHMMSS.png` in the current folder (never replacing a file), and log its path"),
        KeyBinding(keys: ["r"], label: "`r`", action: .record, summary: "start or stop recording",
                   detail: "start or stop recording the window to `photozoom-YYYYMMDD-HHMMSS.webp` in the current folder (never replacing a file), at up to 30 frames a second, scaled to fit 960x960 (or `--record-size`); a red dot shows it is on (it is not in the recording), and the path is logged when the file is complete"),
        KeyBinding(keys: ["c"], needsControl: true, label: "`Ctrl+C`", action: .copy, summary: "copy the photo",
                   detail: "copy the open photo to the clipboard, as a file (`text/uri-list`) and as a picture (`image/png`)"),
        KeyBinding(keys: ["plus", "equal", "KP_Add", "minus", "KP_Subtract"], label: "`+` (or `=`), `-`", action: .zoom,
                   summary: "zoom in or out", detail: "zoom the open photo in or out by 1.5×"),
        KeyBinding(keys: ["0", "KP_0", "1", "KP_1"], label: "`0`, `1`", action: .zoom, summary: "fit; 100 %",
                   detail: "fit the open photo; show it at 100 %"),
        KeyBinding(keys: ["Left", "Right", "Up", "Down", "Home", "End"], label: "arrows, `Home`, `End`", action: .move,
                   summary: "choose a photo; turn the page (zoomed: move it)",
                   detail: "move the grid's selection (the first key shows it); `Left`/`Right` slide the next page in (0.25 s; pressed again while it slides, on to the one after) in the viewer; on a zoomed photo the arrows move it 60 px, and `Left`/`Right` at its edge page. Pressed while the photo flies into the viewer, they play when it lands"),
        KeyBinding(keys: ["Return", "KP_Enter"], label: "`Return`", action: .open,
                   summary: "open the chosen photo; reopen one flying back",
                   detail: "open the selected photo; while a photo flies back into the grid, open it again from where it is"),
        KeyBinding(keys: ["space"], label: "`space`", action: .playPause,
                   summary: "pause or play an animation (else as Return)",
                   detail: "pause an animated photo (GIF, APNG, animated WebP) where it is, or play it on from there; on a photo that does not move, and in the grid, as `Return`"),
        KeyBinding(keys: ["Escape", "BackSpace"], label: "`Escape`, `BackSpace`", action: .close, summary: "back to the grid",
                   detail: "fly the photo back into the grid, from wherever it is (a zoom-in turns around, keeping its speed)"),
        KeyBinding(keys: ["f", "F11"], label: "`f`, `F11`", action: .fullScreen, summary: "full screen",
                   detail: "toggle full screen (through the window manager)"),
        KeyBinding(keys: ["S"], label: "`Shift+S`", action: .slowMotion, summary: "slow motion",
                   detail: "slow motion: every animation ten times slower"),
        KeyBinding(keys: ["d"], label: "`d`", action: .debugOverlay, summary: "debug overlay",
                   detail: "debug overlay: the flight and what moves it, drag, alphas, scale, zoom, where a release would go, the last frame's draw, present and idle time, and the photo's image size"),
        KeyBinding(keys: ["question", "F1"], label: "`?`, `F1`", action: .help, summary: "show or hide this card",
                   detail: "a card of these keys and gestures"),
    ]

    /// The binding of keysym `name` pressed with `control` (or not), if any.
    static func binding(for name: String, control: Bool = false) -> KeyBinding? {
        all.first { $0.keys.contains(name) && (control || !$0.needsControl) }
    }
}
