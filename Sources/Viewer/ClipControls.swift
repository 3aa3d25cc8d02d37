import Geometry
import SceneGraph

/// A clip's controls along the foot of the viewer, fading with its top bar: the play button, the time played, a thin
/// scrub bar with its knob, and the clip's length (with "muted" while `m` holds it silent). Shown only while the page
/// is a clip's.
public final class ClipControls {
    /// Geometry and look, points.
    static let height = 44.0
    static let trackHeight = 3.0
    static let knobSize = 13.0
    static let timeWidth = 52.0
    static let lengthWidth = 96.0

    public let root = Node(name: "viewer.clipControls")
    private let play = Node(name: "viewer.clipControls.play")
    private let played = Node(name: "viewer.clipControls.played")
    private let track = Node(name: "viewer.clipControls.track")
    private let fill = Node(name: "viewer.clipControls.fill")
    private let knob = Node(name: "viewer.clipControls.knob")
    private let length = Node(name: "viewer.clipControls.length")
    /// What it shows now: the knob's place, the clip's length, s, and the play button's and length's words.
    private var shown: (fraction: Double, duration: Double, paused: Bool, muted: Bool)?

    init() {
        root.backgroundColor = ViewerTopBar.color
        root.isHidden = true
        track.backgroundColor = Color(hex: 0xC7C7CC)
        track.cornerRadius = Self.trackHeight / 2
        fill.backgroundColor = ViewerTopBar.tint
        fill.cornerRadius = Self.trackHeight / 2
        knob.backgroundColor = .white
        knob.cornerRadius = Self.knobSize / 2
        knob.borderColor = Color(hex: 0x8E8E93)
        knob.borderWidth = 0.5
        track.addChild(fill)
        for part in [play, played, track, knob, length] { root.addChild(part) }
    }

    /// Whether they show (the page is a clip's).
    public var isShown: Bool {
        get { !root.isHidden }
        set { root.isHidden = !newValue }
    }

    /// At `seconds` of `duration`, playing or paused, muted or not: whether anything it shows changed (a frame that
    /// changed nothing here draws nothing here). A text is set only when its words change (once a second at most).
    @discardableResult
    public func show(seconds: Double, of duration: Double, paused: Bool, muted: Bool) -> Bool {
        let fraction = duration > 0 ? min(1, max(0, seconds / duration)) : 0
        let now = (fraction: (fraction * 1000).rounded() / 1000, duration: duration, paused: paused, muted: muted)
        guard shown.map({ $0 != now }) ?? true else { return false }
        shown = now
        set(play, TextContents(paused ? "▶" : "❚❚", fontSize: paused ? 20 : 15, weight: .bold, color: ViewerTopBar.tint))
        set(played, TextContents(Self.clock(seconds), fontSize: 13, color: .black, alignment: .leading))
        set(length, TextContents(Self.clock(duration) + (muted ? " · muted" : ""), fontSize: 13, color: .black, alignment: .trailing))
        placeKnob()
        return true
    }

    private func set(_ node: Node, _ text: TextContents) {
        if node.text != text { node.text = text }
    }

    /// "0:07", "1:02:03": whole seconds played.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded(.down))
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let ss = s < 10 ? "0\(s)" : "\(s)"
        return h > 0 ? "\(h):\(m < 10 ? "0" : "")\(m):\(ss)" : "\(m):\(ss)"
    }

    /// The button at `point` (window coordinates), while they show (the bars' showing is the caller's to judge).
    func button(at point: Point) -> ViewerTopBar.Button? {
        guard isShown else { return nil }
        if play.convert(play.bounds, to: nil).contains(point) { return .play }
        // The bar's height all along the track: a finger need not land on 3 points.
        let rail = track.convert(track.bounds, to: nil)
        let reach = root.convert(root.bounds, to: nil)
        return point.x >= rail.minX - Self.knobSize && point.x <= rail.maxX + Self.knobSize && reach.contains(point) ? .scrubBar : nil
    }

    /// Where along the scrub bar `point` is (window coordinates): 0 at its start, 1 at its end.
    public func fraction(at point: Point) -> Double {
        let rail = track.convert(track.bounds, to: nil)
        return rail.width > 0 ? min(1, max(0, (point.x - rail.minX) / rail.width)) : 0
    }

    /// Along the foot of a window `size` points.
    func layOut(in size: Size) {
        let h = Self.height
        root.frame = Rect(x: 0, y: size.height - h, width: size.width, height: h)
        play.frame = Rect(x: 4, y: 0, width: 44, height: h)
        played.frame = Rect(x: 52, y: 0, width: Self.timeWidth, height: h)
        let trackX = 52 + Self.timeWidth, trackWidth = max(0, size.width - trackX - Self.lengthWidth - 16)
        track.frame = Rect(x: trackX, y: (h - Self.trackHeight) / 2, width: trackWidth, height: Self.trackHeight)
        length.frame = Rect(x: trackX + trackWidth + 8, y: 0, width: Self.lengthWidth, height: h)
        placeKnob()
    }

    private func placeKnob() {
        let fraction = shown?.fraction ?? 0
        fill.frame = Rect(x: 0, y: 0, width: track.frame.width * fraction, height: Self.trackHeight)
        knob.frame = Rect(x: track.frame.minX + track.frame.width * fraction - Self.knobSize / 2, y: (Self.height - Self.knobSize) / 2,
                          width: Self.knobSize, height: Self.knobSize)
    }
}
