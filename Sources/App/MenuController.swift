import Foundation
import Geometry
import Imaging
import Input
import Library
import Logging
import SceneGraph
import SystemPackage
import Threads

/// The open photo's menu: "Open with …" the desktop's applications for its type, and "Show in Folder"
/// (the file manager's `org.freedesktop.FileManager1.ShowItems` on the session bus, else the folder opened
/// with the desktop's application for folders). What is chosen starts detached, in a session of its own.
/// While it shows it is the first overlay: keys, presses and the pointer's moves are its own.
final class MenuController {
    /// The menu, while it shows, and the photo it acts on.
    private var shown: (menu: ActionMenu, photo: Photo)?
    /// The desktop's applications, read when the menu first opens.
    private var desktopApplications: DesktopApplications?
    /// A press the menu took: its release is the menu's too.
    private var tookPress = false
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var isOpen: Bool { shown != nil }

    /// Opens the menu for `photo` at `point` in a window of `size`, over `root`.
    func open(for photo: Photo, at point: Point, in size: Size, over root: Node) {
        close()
        let applications = desktopApplications ?? DesktopApplications()
        desktopApplications = applications
        // The file's bytes name its type (by the path's bytes: a name that is not UTF-8 opens too).
        func types(_ file: FilePath) -> [String] { ImageFormat.sniff(file: file)?.openWithTypes(extension: file.extension) ?? [] }
        // A Live Photo's still and its movie each open in what opens them: an image editor handed a .MOV would fail.
        let movieActions = photo.motion.map { applications.applications(forAny: types($0)).map(ActionMenu.Action.openMovie) } ?? []
        let actions = applications.applications(forAny: types(photo.file)).map(ActionMenu.Action.open) + movieActions + [.showInFolder]
        let menu = ActionMenu(actions: actions, at: point, in: size)
        root.addChild(menu.root)
        shown = (menu, photo)
    }

    func close() {
        shown?.menu.root.removeFromParent()
        shown = nil
    }

    /// Input while the menu shows: arrows choose, Return takes, any other key closes it; a press on a row
    /// takes it, elsewhere closes the menu (and is spent); the pointer over a row picks it.
    func handle(_ event: InputEvent) -> Handled {
        switch event {
        case .key(let name, _) where shown != nil:
            key(name)
        case .pointerDown(let at, _, _) where shown != nil, .touch(.begin, _, let at, _) where shown != nil:
            tookPress = true
            pressed(at: at)
        case .pointerUp where tookPress, .touch(.end, _, _, _) where tookPress:
            tookPress = false
        case .pointerMove(let to, _) where shown != nil:
            hovered(at: to)
        default:
            return .passed
        }
        return .taken(nil)
    }

    private func key(_ name: String) {
        guard let menu = shown?.menu else { return }
        switch name {
        case "Up": menu.move(by: -1)
        case "Down": menu.move(by: 1)
        case "Return", "KP_Enter": if let chosen = menu.chosen { take(menu.actions[chosen]) } else { close() }
        default: close()
        }
    }

    private func pressed(at point: Point) {
        guard let menu = shown?.menu else { return }
        if let row = menu.row(at: point) { take(menu.actions[row]) } else { close() }
    }

    private func hovered(at point: Point) {
        guard let menu = shown?.menu, let row = menu.row(at: point), row != menu.chosen else { return }
        menu.choose(row)
    }

    private func take(_ action: ActionMenu.Action) {
        guard let photo = shown?.photo else { return }
        close()
        switch action {
        case .open(let entry):
            start(entry, on: photo.file, saying: "\(photo.path) opened with \(entry.name)")
        case .openMovie(let entry):
            guard let movie = photo.motion else { return }
            start(entry, on: movie, saying: "\(String(decoding: movie).escapingControlCharacters) opened with \(entry.name)")
        case .showInFolder:
            showInFolder(photo.file)
        }
    }

    private func start(_ entry: DesktopApplications.Entry, on path: FilePath, saying said: String) {
        guard let command = DesktopApplications.command(for: entry, opening: path) else {
            return logger.warning("\(entry.id): its Exec line cannot be read; nothing started")
        }
        do {
            _ = try DetachedLaunch.start(command)
            logger.info("\(said)")
        } catch {
            logger.warning("\(entry.name) could not be started (\(String(decoding: command[0], as: UTF8.self)): \(error))")
        }
    }

    /// The file manager shows the photo selected in its folder; without one on the session bus, the folder
    /// opens in the desktop's application for folders.
    private func showInFolder(_ path: FilePath) {
        let folder = path.removingLastComponent()
        let fallback = desktopApplications?.applications(for: "inode/directory").first
        let logger = self.logger
        @Sendable func openFolder() {
            guard let fallback, let command = DesktopApplications.command(for: fallback, opening: folder),
                  (try? DetachedLaunch.start(command)) != nil else {
                return logger.warning("no file manager to show \(String(decoding: folder).escapingControlCharacters) (none on the session bus, none for folders)")
            }
            logger.info("\(String(decoding: folder).escapingControlCharacters) opened with \(fallback.name)")
        }
        guard MenuController.hasSessionBus else { return openFolder() }
        let uri = ThumbnailCache.uri(ofPath: path)
        // On a thread: a file manager started by D-Bus activation can take a moment to answer.
        Worker.start(named: "photozoom file manager") {
            guard MenuController.askFileManager(toShow: uri) else { return openFolder() }
            logger.info("\(String(decoding: path).escapingControlCharacters) shown in its folder by the file manager")
        }
    }

    /// Whether there is a session bus to ask (`DBUS_SESSION_BUS_ADDRESS`, or `$XDG_RUNTIME_DIR/bus`).
    private static var hasSessionBus: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty == false
            || environment["XDG_RUNTIME_DIR"].map { FileManager.default.fileExists(atPath: $0 + "/bus") } == true
    }

    /// `org.freedesktop.FileManager1.ShowItems([uri], "")` through `gdbus`; whether a file manager took it.
    private static func askFileManager(toShow uri: String) -> Bool {
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = ["call", "--session", "--timeout", "10", "--dest", "org.freedesktop.FileManager1",
                          "--object-path", "/org/freedesktop/FileManager1", "--method", "org.freedesktop.FileManager1.ShowItems",
                          "['\(uri.replacingOccurrences(of: "'", with: "%27"))']", ""]
        call.standardOutput = FileHandle.nullDevice
        call.standardError = FileHandle.nullDevice
        guard (try? call.run()) != nil else { return false }
        call.waitUntilExit()
        return call.terminationStatus == 0
    }
}
