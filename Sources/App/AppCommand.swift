import Geometry
import Grid

/// What input asks of the app's controllers (the tabs, the albums, the trash, the menu, a turn, a drag out):
/// the interaction and the overlays return these, and the app performs each in one switch
/// (`PhotoViewerApp.perform`), so a new one is a case here and a line there, which the compiler asks for.
enum AppCommand: Equatable {
    /// A tab other than the shown one was chosen.
    case showTab(GridScreen.Tab)
    /// Cover `index` was chosen (tapped, or Return on it): its album pushes in.
    case openAlbum(Int)
    /// Back from an album to the covers (the title bar's button, Escape, a swipe from the left edge, its tab again).
    case back
    /// Delete, or the viewer's trash button: the open photo (in the grid, the chosen one) to the trash.
    case trash
    /// Ctrl+Z, or the undo card: the photo last moved to the trash comes back.
    case undo
    /// The open photo's menu, at a point (nil: under the bar's `…` button).
    case menu(at: Point?)
    /// The open photo turns `quarters` quarters (clockwise positive), on screen from `angle` radians (where a
    /// twist left it).
    case turn(quarters: Int, from: Double)
    /// A long press lifted a photo, the finger carries it, or lets it go.
    case dragOut(DragOutStep)
    /// Tile `index` of a Years, Months or Days card was chosen, tapped at a point (Return: nil): the finer view zooms in.
    case openCard(Int, at: Point?)
    /// The view picker or `Ctrl+1` to `Ctrl+4` chose a view of the Library tab.
    case showView(LibraryView)
    /// A tap on a header (a day's, a month's): Go to date's card opens, its calendar at cell `near`'s month.
    case chooseDate(near: Int)
    /// Go to date (`Ctrl+G`): the grid glides to the first photo of this day (days since 1970) or after it.
    case goToDay(Int64)

    enum DragOutStep: Equatable {
        /// Photo `index` lifted from `origin` (window points) at `point`.
        case lift(index: Int, origin: Rect, at: Point)
        case move(to: Point)
        /// Let go at a point (`cancelled`: the system took the touch).
        case end(at: Point, cancelled: Bool)
    }
}

/// What an overlay (the menu, the help card, the undo card) did with an input event.
enum Handled: Equatable {
    /// Not its own: the next overlay, then the interaction, sees it.
    case passed
    /// Its own, and what the app does for it (nil: nothing more).
    case taken(AppCommand?)
}
