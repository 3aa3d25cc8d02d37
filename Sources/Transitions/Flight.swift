/// The photo in the air: the one copy that travels between its grid cell and the viewer, named
/// once. `ZoomTransitionController.flight` owns it; the motion trace, the `d` overlay, the input
/// rules and the tests all read this value, and `answer(_:)` holds what a key or a press does to it.
public struct Flight: Equatable, Sendable {
    /// Where the photo is in its journey.
    public enum Stage: String, Sendable, CaseIterable {
        /// Out of its cell into the viewer (a tap on a cell, Enter in the grid).
        case zoomingIn
        /// Out of the viewer into its cell, no finger involved (Escape, BackSpace, the back button).
        case flyingBack
        /// A finger holds it: a pull, a pinch to close, or a photo taken in the air.
        case held
        /// Let go short of closing: back to its place in the viewer.
        case springingBack
        /// Let go far or fast enough to close: into its cell.
        case flyingHome
    }

    /// What moves it.
    public enum Mover: String, Sendable {
        case finger
        /// A spring (the zoom-in; the spring back).
        case spring
        /// A timing curve (the fly-back; a finish into the cell).
        case curve
        /// It does not travel: it fades in at one end while the other fades out (reduce motion).
        case crossFade
    }

    /// Where it lands.
    public enum Destination: String, Sendable { case viewer, cell }

    public let stage: Stage
    public let mover: Mover

    public init(_ stage: Stage, by mover: Mover) {
        self.stage = stage
        self.mover = mover
    }

    /// Where it will land as things stand; nil while a finger decides.
    public var destination: Destination? {
        switch stage {
        case .zoomingIn, .springingBack: .viewer
        case .flyingBack, .flyingHome: .cell
        case .held: nil
        }
    }

    // MARK: The rules in the air

    /// What the user asks of the photo in the air.
    public enum Request: Sendable {
        /// Escape, BackSpace, the back button: into the cell.
        case close
        /// Return, or a press on it let go without a drag: into the viewer.
        case open
    }

    /// How the flight answers a request.
    public enum Answer: Equatable, Sendable {
        /// Already heading there, or a finger holds it: nothing changes.
        case goesOn
        /// A flight (zoom-in or fly-back) stops where it is and becomes a released pull toward the other end,
        /// at the speed it has.
        case turnsAround
        /// A released pull heads for the other end, from where it is, at the speed it has.
        case redirects
    }

    /// The one table of what `request` does to the photo in the air. A press on it always takes it
    /// (the finger then carries it as a pull); arrow and zoom keys wait for a landing in the viewer
    /// and are dropped by a landing in the cell (`destination`).
    public func answer(_ request: Request) -> Answer {
        switch (request, stage) {
        case (.close, .zoomingIn), (.open, .flyingBack): .turnsAround
        case (.close, .springingBack), (.open, .flyingHome): .redirects
        case (_, .held), (.close, .flyingBack), (.close, .flyingHome), (.open, .zoomingIn), (.open, .springingBack): .goesOn
        }
    }
}
