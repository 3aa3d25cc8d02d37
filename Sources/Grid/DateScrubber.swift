import Animation
import Geometry
import SceneGraph

/// The date scrubber on the grid's right edge, as Google Photos has it: a handle that stands where the view is in the
/// timeline, counted in photos (not pixels: a day's header takes room but no photos), the years marked along its
/// rail where each begins, and while it is dragged a bubble beside it naming the month under the finger. It shows
/// only on a timeline (sections with years), and only when its owner says (while scrolling fast, on a hover near the
/// edge, while dragged); a finger on it moves the grid with it. The grid's node; the grid lays it out.
public final class DateScrubber {
    let root = Node(name: "grid.scrubber")
    /// The grid it moves (which owns it).
    unowned let grid: GridScreen
    /// Whether a finger moves it (the scrolling does not move the handle then).
    private var isScrubbing = false
    /// Whether its owner wants it shown (it may still be fading in or out).
    private var isWanted = false
    private let handle = Node(name: "grid.scrubber.handle")
    private let bubble = Node(name: "grid.scrubber.bubble")
    private let bubbleText = Node(name: "grid.scrubber.bubble.text")
    /// The years' marks, under the handle and the bubble.
    private let marks = Node(name: "grid.scrubber.years")
    private var yearMarks: [Node] = []
    private var size = Size.zero
    /// The sections' first photos and months, and where each year begins.
    private var starts: [Int] = []
    private var months: [String] = []
    private var years: [(year: Int, start: Int)] = []
    private var count = 0
    /// Where the rail runs, window points: between the bars.
    private(set) var rail = Rect.zero
    /// The handle's place on the rail, 0 (the oldest photo) … 1 (the newest).
    public private(set) var fraction = 0.0

    init(grid: GridScreen) {
        self.grid = grid
        root.alpha = 0
        handle.backgroundColor = GridStyle.scrubberHandle
        handle.cornerRadius = GridStyle.scrubberHandleSize.width / 2
        bubble.backgroundColor = GridStyle.scrubberBubble
        bubble.cornerRadius = GridStyle.scrubberBubbleHeight / 2
        bubble.isHidden = true
        bubble.addChild(bubbleText)
        root.addChild(marks)
        root.addChild(handle)
        root.addChild(bubble)
    }

    /// Whether the timeline has dates to scrub through.
    var hasDates: Bool { !years.isEmpty && count > 1 }

    /// The photos' sections (a timeline's days, with their months and years), for `count` photos.
    func setSections(_ sections: [GridSection], count: Int) {
        self.count = count
        starts = sections.map(\.start)
        months = sections.map(\.month)
        years = []
        for section in sections {
            guard let year = section.year, years.last?.year != year else { continue }
            years.append((year, section.start))
        }
        yearMarks.forEach { $0.removeFromParent() }
        yearMarks = years.map { mark in
            let node = Node(name: "grid.scrubber.year.\(mark.year)")
            node.text = TextContents(String(mark.year), fontSize: GridStyle.scrubberYearFont, weight: .bold,
                                     color: GridStyle.secondaryLabel, alignment: .trailing)
            marks.addChild(node)
            return node
        }
        layOut(in: size)
    }

    /// The rail between the bars of a window of `size`, the year marks along it.
    func layOut(in size: Size) {
        self.size = size
        root.frame = Rect(origin: .zero, size: size)
        marks.frame = root.bounds
        let top = GridStyle.titleBarHeight + GridStyle.scrubberInset, bottom = size.height - GridStyle.tabBarHeight - GridStyle.scrubberInset
        rail = Rect(x: size.width - GridStyle.scrubberInset - GridStyle.scrubberHandleSize.width, y: top,
                    width: GridStyle.scrubberHandleSize.width, height: max(0, bottom - top))
        var lastY = -Double.infinity
        for (mark, node) in zip(years, yearMarks) {
            let y = y(ofFraction: place(of: mark.start))
            node.isHidden = y - lastY < GridStyle.scrubberYearSpacing
            if !node.isHidden { lastY = y }
            node.frame = Rect(x: rail.minX - 60, y: y - 7, width: 52, height: 14)
        }
        place(handleAt: fraction)
    }

    /// Photo `index`'s place on the rail, 0 … 1.
    func place(of index: Int) -> Double { count > 1 ? Double(index) / Double(count - 1) : 0 }

    /// The photo at `fraction` of the rail.
    func photo(atFraction fraction: Double) -> Int { Int((min(max(fraction, 0), 1) * Double(max(count - 1, 0))).rounded()) }

    /// The rail's place (0 … 1) at window height `y`.
    func fraction(atY y: Double) -> Double {
        let travel = rail.height - GridStyle.scrubberHandleSize.height
        guard travel > 0 else { return 0 }
        return min(max((y - rail.minY - GridStyle.scrubberHandleSize.height / 2) / travel, 0), 1)
    }

    private func y(ofFraction f: Double) -> Double {
        rail.minY + GridStyle.scrubberHandleSize.height / 2 + f * max(0, rail.height - GridStyle.scrubberHandleSize.height)
    }

    /// Moves the handle to `f` of the rail.
    func place(handleAt f: Double) {
        fraction = min(max(f, 0), 1)
        handle.frame = Rect(x: rail.minX, y: y(ofFraction: fraction) - GridStyle.scrubberHandleSize.height / 2,
                            width: GridStyle.scrubberHandleSize.width, height: GridStyle.scrubberHandleSize.height)
        if !bubble.isHidden { placeBubble() }
    }

    /// The bubble beside the handle names photo `index`'s month; nil hides it.
    func showBubble(forPhoto index: Int?) {
        guard let index, !starts.isEmpty else {
            bubble.isHidden = true
            return
        }
        // The last section that starts at or before it (binary: a library of 25 years has some 9,000 days).
        var (low, high) = (0, starts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        let k = low
        bubbleText.text = TextContents(months[k], fontSize: GridStyle.scrubberBubbleFont, weight: .bold, color: .white, alignment: .center)
        bubble.isHidden = false
        placeBubble()
    }

    /// What the bubble says while it shows ("March 2019").
    public var bubbleWords: String? { bubble.isHidden ? nil : bubbleText.text?.string }

    private func placeBubble() {
        let words = bubbleText.text?.string ?? ""
        // About the width the words take at this size, with room either side.
        let width = Double(words.count) * GridStyle.scrubberBubbleFont * 0.6 + 32
        bubble.frame = Rect(x: rail.minX - 12 - width, y: handle.frame.midY - GridStyle.scrubberBubbleHeight / 2,
                            width: width, height: GridStyle.scrubberBubbleHeight)
        bubbleText.frame = Rect(origin: .zero, size: bubble.frame.size)
    }


    // MARK: What its owner does with it

    /// Whether the photos are a timeline it can move through (days with their years).
    public var canScrub: Bool { hasDates && !grid.showsCovers }

    /// Shows it, fading in, or fades it out.
    public func show(_ shown: Bool) {
        let wanted = shown && canScrub
        guard wanted != isWanted else { return }
        isWanted = wanted
        if wanted { followScrolling() }
        grid.animator.animate(root, \.alpha, to: wanted ? 1 : 0, with: DateScrubber.fade)
    }

    static let fade = Motion.curve(.easeInOut, duration: 0.2)

    /// Whether it shows (or is fading in or out).
    public var isShown: Bool { root.alpha > 0 }

    /// Whether a press at `point` (window points) takes the handle: near the right edge, along the rail.
    public func grabs(_ point: Point) -> Bool {
        canScrub && isShown && point.x >= rail.maxX + GridStyle.scrubberInset - GridStyle.scrubberGrabWidth && point.y >= rail.minY
            && point.y <= rail.maxY
    }

    /// The finger at window height `y` on the rail: the grid jumps to the photo that far through the timeline
    /// (counted in photos), its row under the pinned header, and the bubble names its month.
    public func scrub(toY y: Double) {
        grid.finishColumnChange()
        isScrubbing = true
        grid.scrolling.stop()
        let fraction = fraction(atY: y)
        let photo = photo(atFraction: fraction)
        place(handleAt: fraction)
        showBubble(forPhoto: photo)
        let layout = grid.layout, range = grid.scrolling.range
        let offset = layout.cellFrame(at: photo).minY - layout.topInset - layout.headerHeight
        grid.scrolling.setOffset(min(max(offset, range.lowerBound), range.upperBound))
    }

    /// The finger lifted: the grid stays, the bubble goes, and the handle follows the scrolling again.
    public func endScrub() {
        isScrubbing = false
        showBubble(forPhoto: nil)
        followScrolling()
    }

    /// The handle stands at the first photo under the pinned header (reaching the rail's foot at the end of the
    /// scrolling, where the newest photos cannot come to the top).
    func followScrolling() {
        // Hidden, it stays where it is: a scroll does not move a node no one sees (it is placed as it shows).
        guard canScrub, !isScrubbing, isWanted || isShown else { return }
        let layout = grid.layout, offset = grid.scrolling.offset, end = grid.scrolling.range.upperBound
        let top = offset + layout.topInset + layout.headerHeight
        let first = layout.indices(inContentRangeFrom: top, to: top + 1).lowerBound
        place(handleAt: max(place(of: first), end > 0 ? offset / end : 0))
    }
}
