import Geometry
import Grid
import Input

/// What keys do, by the one key table: the runner's requests, the grid's selection and columns, and the viewer's
/// keys, which wait for a photo flying into it to land.
extension Interaction {
    /// A key's action, by the one key table. Returns what only the runner can do (quit, save, full screen).
    func key(_ action: KeyBinding.Action) -> PhotoViewerApp.Request? {
        switch action {
        case .quit: return .quit
        case .screenshot: return .screenshot
        case .record: return .toggleRecording
        case .copy: return navigator.openPhoto.map { .copy($0) }
        case .fullScreen: return .toggleFullScreen
        case .close:
            if let viewer = navigator.viewer, viewer.isInfoShown, !navigator.isTransitioning {
                viewer.setInfo(shown: false)   // the details go first, as a swipe down
            } else if navigator.isGridActive, grid.bars.showsBackButton {
                commands.append(.back)
            } else {
                navigator.close()
            }
        case .open, .playPause:
            if !navigator.isGridActive {
                navigator.reopen()
            } else {
                switch grid.contents {
                case .covers: commands.append(.openAlbum(grid.keyboardSelection ?? 0))
                case .cards: commands.append(.openCard(grid.keyboardSelection ?? 0, at: nil))
                case .photos: navigator.open(grid.keyboardSelection ?? 0)
                }
            }
        case .move(let move) where navigator.isGridActive: moveSelection(move)
        case .zoom(let zoom) where navigator.isGridActive: gridZoomKey(zoom)
        case .move(let move): viewerKey(.move(move))
        case .zoom(let zoom): viewerKey(.zoom(zoom))
        case .favorite: navigator.toggleFavorite()
        case .info: viewerKey(.info)
        // The photo's own actions: pressed while it flies into the viewer, they wait for the landing too.
        case .trash: if navigator.viewer != nil { viewerKey(.trash) } else { commands.append(.trash) }
        case .turn(let clockwise): viewerKey(.turn(clockwise: clockwise))
        case .menu: viewerKey(.menu)
        case .libraryView(let view): commands.append(.showView(view))
        case .slowMotion, .debugOverlay, .help, .search, .goToDate, .undo, .stepBack, .mute, .live: break   // the app's own
        }
        return nil
    }

    /// An arrow, zoom or photo key (details, Delete, Ctrl+R, the menu) for the viewer: while the photo flies
    /// into the viewer it waits for the landing; while it flies into its cell, or a finger holds it, it is ignored (the viewer is
    /// leaving, or the finger decides).
    func viewerKey(_ action: ViewerKey) {
        guard navigator.viewer != nil else { return }
        if navigator.flight?.destination == .viewer {
            keysForTheViewer.append(action)
        } else if !navigator.isTransitioning {
            play(action)
        }
    }

    /// Each frame: the keys that waited for a flight, once it has landed in the viewer (dropped if
    /// it landed in the grid).
    func playWaitingKeys() {
        guard !keysForTheViewer.isEmpty, navigator.flight == nil, !navigator.isTransitioning else { return }
        let actions = keysForTheViewer
        keysForTheViewer = []
        guard navigator.viewer != nil else { return }
        actions.forEach(play)
    }

    func play(_ action: ViewerKey) {
        guard let viewer = navigator.viewer else { return }
        switch action {
        case .info: viewer.toggleInfo()
        case .trash: commands.append(.trash)
        case .turn(let clockwise): commands.append(.turn(quarters: clockwise ? 1 : -1, from: 0))
        case .menu: commands.append(.menu(at: nil))
        case .zoom(.stepIn): viewer.zoom(steps: 1)
        case .zoom(.stepOut): viewer.zoom(steps: -1)
        case .zoom(.fit): viewer.zoomToFit()
        case .zoom(.actualSize): viewer.zoomToActualSize()
        case .move(let move):
            // Left and Right turn the page; on a zoomed photo the arrows move it, and Left or Right at
            // its edge turn the page.
            let step: (dx: Double, dy: Double) = switch move {
            case .left: (-1, 0)
            case .right: (1, 0)
            case .up: (0, -1)
            case .down: (0, 1)
            case .first, .last: (0, 0)
            }
            if viewer.isZoomed, !(step.dx != 0 && viewer.isAtEdge(towards: step.dx)) {
                viewer.scroll(dx: step.dx, dy: step.dy, gliding: true)
            } else if step.dx != 0 {
                viewer.page(by: Int(step.dx))
            }
        }
    }

    /// The keys that act on the open photo, and so wait for a photo flying into the viewer to land.
    enum ViewerKey: Equatable {
        case move(KeyBinding.Move), zoom(KeyBinding.Zoom), info, trash, turn(clockwise: Bool), menu
    }

    /// `+` and `-` on the grid: a column fewer (larger photos) or more, about the selection, else the
    /// middle of the grid; `0`: back to the columns the width gives.
    func gridZoomKey(_ zoom: KeyBinding.Zoom) {
        let held = grid.keyboardSelection.map { grid.cell(at: $0).convert(grid.cell(at: $0).bounds, to: nil).center }
            ?? Point(x: grid.size.width / 2, y: grid.size.height / 2)
        switch zoom {
        case .stepIn: grid.stepColumns(by: -1, at: held)
        case .stepOut: grid.stepColumns(by: 1, at: held)
        case .fit: grid.returnToNaturalColumns(at: held)
        case .actualSize: break
        }
    }

    /// Arrow keys move the grid's selection (the first key shows it on the first photo).
    func moveSelection(_ move: KeyBinding.Move) {
        guard let current = grid.keyboardSelection else { return grid.select(0) }
        switch move {
        case .left: grid.select(current - 1)
        case .right: grid.select(current + 1)
        case .up: grid.select(grid.layout.photo(from: current, rows: -1) ?? current)
        case .down: grid.select(grid.layout.photo(from: current, rows: 1) ?? current)
        case .first: grid.select(0)
        case .last: grid.select(grid.photoCount - 1)
        }
    }
}
