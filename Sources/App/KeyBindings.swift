import Grid

/// What each key does: the one table that the key handler, the `?` card and docs/reference.md's key table are
/// made from (a test holds the docs to it).
struct KeyBinding {
    /// What a key does, decided once here: the handlers act on it without reading the key's name again.
    enum Action: Equatable {
        case quit, screenshot, record, copy, slowMotion, debugOverlay, help, fullScreen
        /// Into the grid, from wherever the photo is.
        case close
        /// Open the grid's selection; reopen a photo on its way into its cell.
        case open
        /// Arrows, Home, End: the grid's selection, the pages, a zoomed photo.
        case move(Move)
        /// `+ - 0 1`: the open photo's zoom.
        case zoom(Zoom)
        /// `space`: an animation plays or pauses; otherwise as `open`.
        case playPause
        /// `,`: a paused clip's picture before (`.`, a favorite's key, steps on while one is paused).
        case stepBack
        /// `m`: clips play silent, or with their sound.
        case mute
        /// `l`: Live Photos play their movie as they land, or not.
        case live
        /// `.`: the open photo becomes a favorite, or stops being one.
        case favorite
        /// `/`: the Search tab.
        case search
        /// `Ctrl+G`: go to a date typed (a timeline's grid).
        case goToDate
        /// `Ctrl+1` to `Ctrl+4`: the Library tab's Years, Months, Days or All Photos.
        case libraryView(LibraryView)
        /// `Delete`: the open photo (or the grid's chosen one) to the trash.
        case trash
        /// `Ctrl+Z`: the photo last moved to the trash back, while its card shows.
        case undo
        /// `i`, `Alt+Return`: the open photo's details show, or hide.
        case info
        /// `o`: the open photo's menu (open with, show in folder).
        case menu
        /// `Ctrl+R`, `Ctrl+Shift+R`: the open photo turns a quarter clockwise, or counter-clockwise.
        case turn(clockwise: Bool)
    }

    enum Move: Equatable {
        case left, right, up, down
        /// Home, End: the first and the last photo.
        case first, last
    }

    enum Zoom: Equatable {
        case stepIn, stepOut, fit, actualSize
    }

    /// X keysym names, each with its action.
    let keys: KeyValuePairs<String, Action>
    /// Whether Ctrl must be held (Ctrl+C); the other keys work with or without it.
    var needsControl = false
    /// The keys as the card and docs/reference.md show them.
    let label: String
    /// For the card.
    let summary: String
    /// For docs/reference.md's key table.
    let detail: String

    static let all: [KeyBinding] = [
        KeyBinding(keys: ["q": .quit], label: "`q`", summary: "quit",
                   detail: "quit (status 0; so does the window manager's close button)"),
        KeyBinding(keys: ["s": .screenshot], label: "`s`", summary: "save a screenshot",
                   detail: "save a screenshot `photozoom-YYYYMMDD-HHMMSS.png` in the current folder (never replacing a file), and log its path"),
        KeyBinding(keys: ["r": .record], label: "`r`", summary: "start or stop recording",
                   detail: "start or stop recording the window to `photozoom-YYYYMMDD-HHMMSS.webp` in the current folder (never replacing a file), at up to 30 frames a second, scaled to fit 960x960 (or `--record-size`); a red dot shows it is on (it is not in the recording), and the path is logged when the file is complete"),
        KeyBinding(keys: ["c": .copy], needsControl: true, label: "`Ctrl+C`", summary: "copy the photo",
                   detail: "copy the open photo to the clipboard, as a file (`text/uri-list`) and as a picture (`image/png`)"),
        KeyBinding(keys: ["plus": .zoom(.stepIn), "equal": .zoom(.stepIn), "KP_Add": .zoom(.stepIn),
                          "minus": .zoom(.stepOut), "KP_Subtract": .zoom(.stepOut)],
                   label: "`+` (or `=`), `-`", summary: "zoom in or out; in the grid, fewer or more columns",
                   detail: "zoom the open photo in or out by 1.5×; in the grid, a column fewer (larger photos) or more, about the selection"),
        KeyBinding(keys: ["0": .zoom(.fit), "KP_0": .zoom(.fit), "1": .zoom(.actualSize), "KP_1": .zoom(.actualSize)],
                   label: "`0`, `1`", summary: "fit; 100 %; in the grid, the usual columns",
                   detail: "fit the open photo; show it at 100 %; in the grid, `0` glides back to the columns the window's width gives (after a pinch or `+`/`-`)"),
        KeyBinding(keys: ["Left": .move(.left), "Right": .move(.right), "Up": .move(.up), "Down": .move(.down),
                          "Home": .move(.first), "End": .move(.last)], label: "arrows, `Home`, `End`",
                   summary: "choose a photo; turn the page (zoomed: move it)",
                   detail: "move the grid's selection (the first key shows it); `Left`/`Right` slide the next page in (0.25 s; pressed again while it slides, on to the one after) in the viewer; on a zoomed photo the arrows move it 60 px, and `Left`/`Right` at its edge page. Pressed while the photo flies into the viewer, they play when it lands"),
        KeyBinding(keys: ["Return": .open, "KP_Enter": .open], label: "`Return`",
                   summary: "open the chosen photo; reopen one flying back",
                   detail: "open the selected photo; while a photo flies back into the grid, open it again from where it is"),
        KeyBinding(keys: ["space": .playPause], label: "`space`",
                   summary: "pause or play an animation (else as Return)",
                   detail: "pause a clip or an animated photo (GIF, APNG, animated WebP) where it is, or play it on from there (the play button at a clip's foot does too); on a Live Photo, play its movie once; on a photo that does not move, and in the grid, as `Return`"),
        KeyBinding(keys: ["comma": .stepBack], label: "`,` and `.`", summary: "a paused clip's picture back, or on",
                   detail: "on a paused clip or animation, show the picture before, or after (`.` favorites a photo that is not paused); the scrub bar at a clip's foot, dragged or tapped, goes to any time"),
        KeyBinding(keys: ["m": .mute], label: "`m`", summary: "mute clips, or not",
                   detail: "clips play silent, or with their sound again (kept from clip to clip; the clip's foot says “muted”). Sound goes to the desktop's sound server (PulseAudio, or PipeWire's pulse server); with none, clips play silent after one line"),
        KeyBinding(keys: ["l": .live], label: "`l`", summary: "Live Photos play as they land, or not",
                   detail: "whether a Live Photo or Motion Photo plays its movie once, muted, as it lands in the viewer (on at launch); a press held on it plays the movie with its sound either way, and space plays it once"),
        KeyBinding(keys: ["period": .favorite], label: "`.`", summary: "favorite, or not",
                   detail: "mark the open photo as a favorite, or not (the heart on the viewer's bar does too): a heart on its bar and its grid cell, kept in `$XDG_DATA_HOME/photozoom/` for the next launch"),
        KeyBinding(keys: ["i": .info], label: "`i`, `Alt+Return`", summary: "the photo's details",
                   detail: "show or hide the open photo's details under it (as a swipe up does, and a swipe down hides them): when it was taken, camera and lens, exposure, pixel size and megapixels, file size, format and colour profile, where it was taken, its file and folder"),
        KeyBinding(keys: ["r": .turn(clockwise: true), "R": .turn(clockwise: false)], needsControl: true,
                   label: "`Ctrl+R`, `Ctrl+Shift+R`", summary: "turn the photo",
                   detail: "turn the open photo a quarter clockwise, or counter-clockwise, with a spring; a JPEG's or PNG's file is turned for good by its EXIF orientation alone (its image data untouched, written atomically), an MP4's or QuickTime's by its track matrix, a Live Photo's movie with its still; other formats turn on screen only, and say so once; with `--read-only`, on screen only"),
        KeyBinding(keys: ["o": .menu], label: "`o`", summary: "open with…, show in folder",
                   detail: "the open photo's menu (a right click and the bar's `•••` do too): “Open with” each of the desktop's applications for its type (its `.desktop` files, in `mimeapps.list`'s order), and “Show in Folder” (the file manager over D-Bus, else the folder in the application for folders); arrows and `Return` or a click choose, `Escape` closes; what is chosen starts on its own, detached"),
        KeyBinding(keys: ["Delete": .trash, "KP_Delete": .trash], label: "`Delete`", summary: "move the photo to the trash",
                   detail: "move the open photo (in the grid, the chosen one) to the desktop's Trash, never deleting it: it shrinks away, the next one shows, and a card offers it back for 5 seconds. `Shift+Delete` does the same (no viewer deletes for good); with `--read-only`, nothing"),
        KeyBinding(keys: ["z": .undo], needsControl: true, label: "`Ctrl+Z`", summary: "put the trashed photo back",
                   detail: "while the card shows, put the photo just moved to the trash back where it was (a tap on the card does too)"),
        KeyBinding(keys: ["slash": .search], label: "`/`", summary: "search the photos",
                   detail: "in the grid, the Search tab: type a file or folder name, a year, a month, “yesterday” or a camera, and the grid keeps what matches as you type (`BackSpace` deletes, `Escape` clears, then goes back to the Library tab)"),
        KeyBinding(keys: ["g": .goToDate], needsControl: true, label: "`Ctrl+G`", summary: "go to a date",
                   detail: "on a timeline's grid, a card under the title bar takes a date as it is typed (“2019-03-14”, “March 2019”, “14 March 2019”, “2019”; numbers alone in the locale's order), or a tap on a day of its calendar (a tap on a day's header opens the card too; the month at the top of the view, or the header's, its days with photos in bold; ‹ and ›, or `Page Up` and `Page Down`, turn it, and it follows the date typed); `Return` glides the grid to that day's (month's, year's) first photo, its day's header at the top, or to the newest when the date is past them all; `Escape` closes it"),
        KeyBinding(keys: ["1": .libraryView(.years), "2": .libraryView(.months), "3": .libraryView(.days), "4": .libraryView(.all)],
                   needsControl: true, label: "`Ctrl+1` to `Ctrl+4`", summary: "Years, Months, Days, All Photos",
                   detail: "on a timeline's Library tab, Years (a card a year, its key photo: a favorite, else one well exposed), Months (a card a month, a few of its days' photos), Days (a card a day, up to six of its photos) or All Photos, as the picker at the tab's foot chooses; the view zooms about the photo in the middle. A tap on a card zooms into the finer view, the photo tapped staying under the finger; Back, `Escape` or a swipe from the left edge zooms back out to where it was"),
        KeyBinding(keys: ["Escape": .close, "BackSpace": .close], label: "`Escape`, `BackSpace`", summary: "back to the grid; out of an album",
                   detail: "fly the photo back into the grid, from wherever it is (a zoom-in turns around, keeping its speed; with its details shown, they hide first); in an album's grid, back to the albums; with the `?` card shown, `Escape` hides it first"),
        KeyBinding(keys: ["f": .fullScreen, "F11": .fullScreen], label: "`f`, `F11`", summary: "full screen",
                   detail: "toggle full screen (through the window manager)"),
        KeyBinding(keys: ["S": .slowMotion], label: "`Shift+S`", summary: "slow motion",
                   detail: "slow motion: every animation ten times slower"),
        KeyBinding(keys: ["d": .debugOverlay], label: "`d`", summary: "debug overlay",
                   detail: "debug overlay: the flight and what moves it, drag, alphas, scale, zoom, where a release would go, the last frame's draw, present and idle time, and the photo's image size"),
        KeyBinding(keys: ["question": .help, "F1": .help], label: "`?`, `F1`", summary: "show or hide this card",
                   detail: "a card of these keys and gestures"),
    ]

    /// What keysym `name` pressed with `control` (or not) does, if anything.
    static func action(for name: String, control: Bool = false, alt: Bool = false) -> Action? {
        // Alt+Return: the details, as file managers show a file's properties.
        if alt, name == "Return" || name == "KP_Enter" { return .info }
        // With Ctrl, the Ctrl bindings first (Ctrl+R turns; R alone records).
        for binding in all.filter(\.needsControl) + all.filter({ !$0.needsControl }) where control || !binding.needsControl {
            if let action = binding.keys.first(where: { $0.key == name })?.value { return action }
        }
        return nil
    }
}
