import Geometry

/// A single or double tap: press and release without moving past the slop. A double tap's second
/// press must come within `doubleTapInterval` of the first release and `doubleTapDistance` of it.
/// A single tap can be told to wait until a double tap has failed (`requireToFail`).
public final class TapRecognizer: Recognizer {
    public let tapsRequired: Int
    public private(set) var state: GestureState = .possible
    /// Where the last tap went down.
    public private(set) var location = Point.zero
    public var onRecognized: ((TapRecognizer) -> Void)?

    private var taps = 0
    private var downTime = 0.0
    private var downLocation = Point.zero
    private var firstTapLocation = Point.zero
    private var nextTapDeadline: Double?
    private weak var mustFail: TapRecognizer?
    /// Recognizers waiting for this one to fail, told as soon as it settles.
    private var waiters: [WeakTap] = []
    private var waitingForFailure = false

    public init(taps: Int = 1) {
        precondition(taps == 1 || taps == 2, "single or double taps")
        tapsRequired = taps
    }

    /// Recognize only once `other` has failed (a single tap that waits for a double tap).
    public func requireToFail(_ other: TapRecognizer) {
        mustFail = other
        other.waiters.append(WeakTap(self))
    }

    public func handle(_ event: PointerEvent, pointers: ActivePointers) {
        if state == .recognized || state == .failed {
            guard event.phase == .down, pointers.count == 1 else { return }
            reset()
        }
        guard !waitingForFailure else { return }
        switch event.phase {
        case .down:
            guard pointers.count == 1 else { return fail() }
            if taps > 0 {
                guard let deadline = nextTapDeadline, event.time <= deadline,
                      distance(event.location, firstTapLocation) <= GestureTuning.doubleTapDistance else { return fail() }
            }
            downTime = event.time
            downLocation = event.location
            nextTapDeadline = nil
        case .move:
            if distance(event.location, downLocation) > GestureTuning.touchSlop { fail() }
        case .up:
            guard event.time - downTime <= GestureTuning.tapMaxDuration,
                  distance(event.location, downLocation) <= GestureTuning.touchSlop else { return fail() }
            if taps == 0 { firstTapLocation = downLocation }
            taps += 1
            location = downLocation
            if taps == tapsRequired {
                waitingForFailure = mustFail != nil
                settleIfPossible()
            } else {
                nextTapDeadline = event.time + GestureTuning.doubleTapInterval
            }
        case .cancel:
            fail()
        }
    }

    public var isWaiting: Bool { nextTapDeadline != nil || waitingForFailure }

    public func advance(to time: Double) {
        if let deadline = nextTapDeadline, time > deadline { fail() }
        settleIfPossible()
    }

    private func settleIfPossible() {
        guard state == .possible, taps == tapsRequired else { return }
        if waitingForFailure {
            switch mustFail?.state {
            case .failed?, nil: break
            case .recognized?: return fail()
            default: return
            }
        }
        waitingForFailure = false
        state = .recognized
        onRecognized?(self)
        notifyWaiters()
    }

    private func fail() {
        state = .failed
        nextTapDeadline = nil
        waitingForFailure = false
        notifyWaiters()
    }

    private func notifyWaiters() {
        for waiter in waiters { waiter.tap?.settleIfPossible() }
    }

    private func reset() {
        state = .possible
        taps = 0
        nextTapDeadline = nil
        waitingForFailure = false
    }
}

private struct WeakTap {
    weak var tap: TapRecognizer?
    init(_ tap: TapRecognizer) { self.tap = tap }
}

func distance(_ a: Point, _ b: Point) -> Double { (a - b).magnitude }
