/// What the fingers are doing: the interaction's one gesture at a time.
enum FingerGesture: Equatable {
    case scrollingGrid
    case paging
    case panningPhoto
    /// One finger holds the photo out of the viewer (a pull, or a photo taken in the air).
    case pulling
    /// Two fingers at fit, not moved yet: their first move decides (apart zooms, together closes).
    case pinchPending
    case pinchZooming
    case pinchClosing
    /// Two fingers on the grid change its column count.
    case pinchingGrid
    /// A drag from the grid's left edge: back out of an album when it lets go far or fast enough.
    case swipingBack
    /// A vertical drag lifts the photo over its details, or lowers it (and past hidden becomes a pull).
    case revealingInfo
    /// A long press lifted a photo (a cell's, or the open one) and the finger carries it out.
    case draggingOut
    /// Two fingers at fit turned before they spread or closed: the photo turns with them.
    case twisting
    /// A finger on a clip's scrub bar: the clip goes to the time under it.
    case scrubbing
    /// A press held on a Live Photo: its movie plays while it is held.
    case holdingLive
}

/// The interaction's phases, for the trace and the `d` overlay: the fingers' gesture, the date scrubber's handle
/// dragged, or a photo in the air.
enum InteractionPhase: String {
    case idle, scrollingGrid, paging, panningPhoto, pulling, pinchPending, pinchZooming, pinchClosing, pinchingGrid, swipingBack, revealingInfo
    case draggingOut, twisting, scrubbing, holdingLive, scrubbingDates
    case inTheAir

    /// The phase of the fingers' `gesture`; with none, in the air (a photo flies on its own) or idle.
    init(_ gesture: FingerGesture?, inTheAir: Bool) {
        switch gesture {
        case .scrollingGrid?: self = .scrollingGrid
        case .paging?: self = .paging
        case .panningPhoto?: self = .panningPhoto
        case .pulling?: self = .pulling
        case .pinchPending?: self = .pinchPending
        case .pinchZooming?: self = .pinchZooming
        case .pinchClosing?: self = .pinchClosing
        case .pinchingGrid?: self = .pinchingGrid
        case .swipingBack?: self = .swipingBack
        case .revealingInfo?: self = .revealingInfo
        case .draggingOut?: self = .draggingOut
        case .twisting?: self = .twisting
        case .scrubbing?: self = .scrubbing
        case .holdingLive?: self = .holdingLive
        case nil: self = inTheAir ? .inTheAir : .idle
        }
    }
}
