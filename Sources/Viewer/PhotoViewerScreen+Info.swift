import Animation

/// The photo's details: a swipe up lifts the photo and the panel rises under it, following the finger,
/// and the release springs it shown or hidden (a flick goes its way); `i` shows or hides them. A drag
/// down that goes on once they are hidden is a pull (the interaction hands it over).
extension PhotoViewerScreen {
    public var isInfoShown: Bool { info.isShown }

    /// `i`: the details show, or hide.
    public func toggleInfo() { setInfo(shown: !info.isShown) }

    /// The details spring shown or hidden, from `velocity` (reveal a second).
    public func setInfo(shown: Bool, velocity: Double = 0) {
        if shown, !info.isShown { fillInfo() }
        info.isShown = shown
        animator.animate(info, \.reveal, to: shown ? 1 : 0, with: InfoPanel.spring, initialVelocity: velocity)
    }

    /// A vertical drag takes the details where they are.
    public func beginInfoDrag() {
        if !info.isShown, info.reveal == 0 { fillInfo() }
        animator.cancel(info, \.reveal)
        info.beginDrag()
    }

    /// The finger `translationY` from where it went down (up is negative): the photo follows it. Returns how far
    /// it has gone down past hidden, points (from there, a pull).
    @discardableResult
    public func dragInfo(translationY t: Double) -> Double { info.drag(translationY: t) }

    /// Let go at `velocityY` (points a second, up negative): shown or hidden, by where it is or how it was flicked.
    public func endInfoDrag(velocityY v: Double) {
        let (shown, velocity) = info.release(velocityY: v)
        setInfo(shown: shown, velocity: velocity)
    }

    /// The panel says the current photo's details.
    func fillInfo() {
        let (title, rows) = details?(index) ?? (photoName, [])
        info.fill(title: title, rows: rows, width: size.width, largest: size.height * InfoPanel.largestShare)
        layOutInfo()
    }
}
