import Geometry
import Library

/// What input asks of the app's controllers (`AppCommand`), each performed here: the tabs and albums, the
/// trash and its undo, the photo's menu, a turn, and a photo dragged out.
extension PhotoViewerApp {
    func perform(_ command: AppCommand) {
        switch command {
        case .showTab(let tab): show(tab)
        case .openAlbum(let index): openAlbum(at: index)
        case .back: if openedAlbum != nil { closeAlbum() } else if navigator.isGridActive { views.back(in: self) }
        case .openCard(let index, let point): if navigator.isGridActive { views.open(tile: index, at: point, in: self) }
        case .showView(let view): if navigator.isGridActive, grid.bars.showsViewPicker { views.choose(view, in: self) }
        case .trash: trashChosenPhoto()
        case .undo: if let changes = trashing.undo() { filesChanged(changes) }
        case .menu(let point): openMenu(at: point)
        case .turn(let quarters, let angle): turnOpenPhoto(quarters: quarters, from: angle)
        case .dragOut(let step): dragOut(step)
        case .chooseDate(let cell): dateEntry.open(over: self, near: cell)
        case .goToDay(let day): DateEntryController.glide(grid, toDay: day, in: photos)
        }
        setNeedsDisplay()
    }

    /// What the interaction asked for since the last time.
    func performInteractionCommands() {
        for command in interaction.takeCommands() { perform(command) }
    }

    /// The open photo (in the grid, the chosen one) to the trash.
    private func trashChosenPhoto() {
        let chosen = navigator.viewer.map(\.index) ?? (navigator.isGridActive && grid.contents == .photos ? grid.keyboardSelection : nil)
        guard let chosen, photos.indices.contains(chosen), !navigator.isTransitioning else { return }
        // The list changes only while nothing moves, and the card fades in.
        if let changes = trashing.trash(photos[chosen], in: size, over: root) { filesChanged(changes) }
    }

    /// Opens the open photo's menu at `point` (nil: under the bar's `…` button).
    private func openMenu(at point: Point?) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        menu.open(for: photos[viewer.index], at: point ?? Point(x: size.width, y: 56), in: size, over: root)
    }

    private func turnOpenPhoto(quarters: Int, from angle: Double) {
        guard let viewer = navigator.viewer, !navigator.isTransitioning else { return }
        if let changes = turns.turn(photos[viewer.index], in: viewer, quarters: quarters, from: angle) { filesChanged(changes) }
    }

    private func dragOut(_ step: AppCommand.DragOutStep) {
        switch step {
        case .lift(let index, let origin, let point):
            guard !menu.isOpen, photos.indices.contains(index) else { return }
            let picture = navigator.viewer?.image ?? grid.picture(at: index) ?? grid.cell(at: index).image
            dragOut.lift(photos[index], picture: picture, from: origin, at: point, over: root)
        case .move(let point): dragOut.moved(to: point)
        case .end(let point, let cancelled): dragOut.ended(at: point, cancelled: cancelled, in: Rect(origin: .zero, size: size))
        }
    }

    /// The photo lifted and dragged, while one is: past the window's edge the window system carries it on.
    public var draggedOutPhoto: Photo? { dragOut.photo }

    /// When the undo card goes (clock time), while it shows: the loop wakes then.
    public var nextDeadline: Double? { trashing.nextDeadline }

    /// The card goes once its time is up (every tick, and the window loop between frames).
    public func passTime() { trashing.passTime() }
}
