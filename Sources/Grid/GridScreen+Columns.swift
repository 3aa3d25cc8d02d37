import Animation
import Geometry
import Scrolling

/// Pinching the grid: two fingers (or Ctrl+wheel, Ctrl+`+`/`-`) change its column count within
/// `GridLayout.columnRange`. While the fingers move, the layout is part-way between two counts, and
/// the photo under the fingers stays under them; let go, it settles on a whole count with a spring
/// that keeps the fingers' speed.
extension GridScreen {
    /// The spring the columns settle with, and how far (in columns) the fingers' speed carries them.
    static let columnSpring = Motion.spring(response: 0.35, dampingRatio: 1)
    static let columnProjection = 0.15

    public var isChangingColumns: Bool { columnChange != nil }

    /// Two fingers (or the pointer) at `point` begin to change the columns.
    public func beginColumnChange(at point: Point) {
        guard photoCount > 0, contents == .photos else { return }   // covers keep their size
        finishColumnChange()   // one still settling lands first: the fingers start from a whole count
        scrolling.stop()
        let (anchor, depth) = layout.photo(nearest: point, scrollOffset: scrollOffset, viewportHeight: size.height)
        let change = ColumnChange(columns: layout.columns, anchor: anchor, anchorDepth: depth, point: point)
        change.onChange = { [unowned self] in showColumnChange() }
        columnChange = change
        // Drawn in window coordinates from here: no scroll offset, and only the cells it places are shown.
        for case let cell? in cells.nodes { cell.isHidden = true }
        selectionRing.isHidden = true
        showColumnChange()
    }

    /// The fingers spread to `scale` times their first distance apart, their centre at `point`: the
    /// columns follow (spread: fewer, larger photos), resisting past either end of the range.
    public func changeColumns(scale: Double, at point: Point) {
        guard let change = columnChange, scale > 0 else { return }
        change.follow(scale: scale, at: point, within: GridLayout.columnRange(forWidth: size.width))
    }

    /// The fingers let go, the scale changing at `scaleVelocity` a second: the columns settle on the
    /// whole count nearest where that speed would carry them.
    public func endColumnChange(scaleVelocity: Double) {
        guard let change = columnChange else { return }
        // columns = start / scale, so d(columns)/dt = −columns / scale · d(scale)/dt.
        let scale = change.startColumns / change.columns
        let velocity = -change.columns / scale * scaleVelocity
        settleColumns(on: Int((change.columns + velocity * GridScreen.columnProjection).rounded()), velocity: velocity)
    }

    /// One column more (`delta` 1) or fewer (−1), gliding, holding the photo at `point` (Ctrl+wheel,
    /// Ctrl+`+`/`-`); again while it glides: one on from where it is going.
    public func stepColumns(by delta: Int, at point: Point) {
        guard contents == .photos else { return }
        let from = columnChange?.target ?? layout.columns
        let range = GridLayout.columnRange(forWidth: size.width)
        let target = min(max(from + delta, range.lowerBound), range.upperBound)
        guard target != layout.columns || columnChange != nil else { return }
        if columnChange == nil { beginColumnChange(at: point) }
        settleColumns(on: target, velocity: nil)
    }

    /// Back to the count the window's width gives (`0` on the grid), gliding, holding the photo at
    /// `point`; from then on a resize chooses the count again.
    public func returnToNaturalColumns(at point: Point) {
        guard contents == .photos, chosenColumns != nil || columnChange != nil else { return }
        let natural = layout.with(columns: nil).columns
        if columnChange == nil, natural == layout.columns { chosenColumns = nil; return }
        if columnChange == nil { beginColumnChange(at: point) }
        settleColumns(on: natural, velocity: nil, natural: true)
    }

    /// Ends a change at once on where it was going (a photo opens, the window is resized).
    public func finishColumnChange() {
        guard let change = columnChange else { return }
        animator.cancel(change, \.columns)
        commitColumns(change.target, change)
    }

    private func settleColumns(on count: Int, velocity: Double?, natural: Bool = false) {
        guard let change = columnChange else { return }
        change.isNatural = natural
        let range = GridLayout.columnRange(forWidth: size.width)
        change.target = min(max(count, range.lowerBound), range.upperBound)
        animator.animate(change, \.columns, to: Double(change.target), with: GridScreen.columnSpring,
                         initialVelocity: velocity, restThreshold: 0.002) { [weak self, weak change] end in
            guard end == .finished, let self, let change, change === self.columnChange else { return }
            self.commitColumns(change.target, change)
        }
    }

    /// The new count becomes the layout, scrolled so the held photo stays where it is held.
    private func commitColumns(_ count: Int, _ change: ColumnChange) {
        columnChange = nil
        chosenColumns = change.isNatural ? nil : count
        let next = layout.with(columns: count)
        layout = next
        for case let cell? in cells.nodes { cell.isHidden = false }
        selectionRing.isHidden = keyboardSelection == nil
        relayout()
        scrolling.setOffset(change.heldOffset(in: next, viewportHeight: size.height))
        arrangement += 1
    }

    /// Each shown cell (and header) part-way between its frames in the two layouts around the shown
    /// count, each layout scrolled to hold the anchor's photo at the fingers.
    private func showColumnChange() {
        guard let change = columnChange else { return }
        let (lower, upper, t) = change.between
        let a = layout.with(columns: lower), b = layout.with(columns: upper)
        let offsetA = change.heldOffset(in: a, viewportHeight: size.height), offsetB = change.heldOffset(in: b, viewportHeight: size.height)
        let inA = a.indices(inContentRangeFrom: offsetA, to: offsetA + size.height)
        let inB = b.indices(inContentRangeFrom: offsetB, to: offsetB + size.height)
        let shown = min(inA.lowerBound, inB.lowerBound)..<max(inA.upperBound, inB.upperBound)
        for i in change.shown where !shown.contains(i) { cells[i]?.isHidden = true }
        attachCells(shown)
        for i in shown {
            let from = a.cellFrame(at: i) - Rect(x: 0, y: offsetA, width: 0, height: 0)
            let to = b.cellFrame(at: i) - Rect(x: 0, y: offsetB, width: 0, height: 0)
            place(cell: i, at: from + (to - from) * t)
            cell(at: i).isHidden = false
        }
        change.shown = shown
        headers.show(between: a, offsetA, and: b, offsetB, progress: t)
        scroll.bounds.origin.y = 0
        arrangement += 1
    }
}
