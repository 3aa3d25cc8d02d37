import Geometry
import SceneGraph

/// The grid screen's look: colours after iOS's light system palette, sizes in px.
enum GridStyle {
    static let background = Color.white
    static let barBackground = Color(hex: 0xF9F9F9, alpha: 0.94)
    static let separator = Color(hex: 0xC6C6C8)
    static let titleBarHeight = 56.0
    static let tabBarHeight = 56.0
    static let barPadding = 16.0
    static let titleFont = 22.0
    static let subtitleFont = 13.0
    static let tabFont = 12.0
    static let label = Color.black
    static let secondaryLabel = Color(hex: 0x8E8E93)
    static let tint = Color(hex: 0x007AFF)
    static let loadingCell = Color(hex: 0xE5E5EA)
    static let brokenCell = Color(hex: 0xD1D1D6)
    static let brokenGlyphFont = 28.0
    /// An animated photo's badge: a dark pill in the cell's lower-left corner.
    static let badgeBackground = Color(hex: 0x000000, alpha: 0.55)
    static let badgeHeight = 16.0
    static let badgeInset = 5.0
    static let badgeFont = 10.0
    static let emptyTitleFont = 24.0
    static let emptyDetailFont = 14.0
    /// A timeline day's header: its height and title, px; translucent as the bars, over the photos
    /// that scroll under it while it is pinned.
    static let headerHeight = 40.0
    static let headerFont = 17.0
    static let headerBackground = Color(hex: 0xFFFFFF, alpha: 0.92)
    /// The keyboard selection's ring, px.
    static let selectionWidth = 3.0
    /// Wheel scrolling: px per notch.
    static let wheelStep = 60.0
    /// The Search tab's field: its height and font, px.
    static let searchHeight = 36.0
    static let searchFont = 16.0
    /// An album's back button ("‹ Albums"), px.
    static let backFont = 17.0
    static let backWidth = 96.0
    /// A cover's caption: a dark strip along its foot with the album's name and count, px.
    static let captionHeight = 42.0
    static let captionBackground = Color(hex: 0x000000, alpha: 0.45)
    static let captionFont = 14.0
    static let captionDetailFont = 11.0
    static let captionInset = 8.0
    /// The date scrubber on the right edge: its handle (a dark pill), the bubble beside it, the years along its rail,
    /// px; a press this far from the edge takes the handle, and year marks closer than their spacing are left out.
    static let scrubberHandleSize = Size(width: 8, height: 44)
    static let scrubberInset = 4.0
    static let scrubberGrabWidth = 44.0
    static let scrubberHandle = Color(hex: 0x3A3A3C, alpha: 0.85)
    static let scrubberBubble = Color(hex: 0x1C1C1E, alpha: 0.9)
    static let scrubberBubbleFont = 15.0
    static let scrubberBubbleHeight = 32.0
    static let scrubberYearFont = 11.0
    static let scrubberYearSpacing = 18.0
}
