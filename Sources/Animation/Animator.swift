/// Moves properties of objects (node frames, alphas, scroll offsets, zoom scales …) with springs,
/// curves and decay, one step per frame tick. As with UIKit, an animation may wait `delay` seconds
/// before it starts; the value holds still until then.
///
/// A property is named by its object and key path. Animating a property that is already moving
/// replaces the running animation, starting from its current position and, for springs, its current
/// velocity (unless a velocity is given); the replaced one's completion runs with `.retargeted`.
/// Objects are held weakly: the animations of an object that no longer exists end (`.cancelled`),
/// and a new object at its address inherits nothing from them. Every animation of an object, or
/// of a tag, can be stopped at once.
public final class Animator {
    public let clock: FrameClock
    private var running: [PropertyKey: AnyAnimation] = [:]
    /// Numbers the animations in the order they began: a tick applies and ends them in that order.
    private var started = 0
    /// Every animation runs this many times slower (Shift+S's slow motion sets 10).
    public private(set) var slowdown = 1.0
    private var timeOffset = 0.0, lastSlowdownChange = 0.0

    public init(clock: FrameClock) { self.clock = clock }

    /// Whether anything moves: the frame loop ticks only then.
    public var isAnimating: Bool { !running.isEmpty }

    public func animate<Root: AnyObject, Value: Animatable>(
        _ object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>, to target: Value, with motion: Motion,
        delay: Double = 0, initialVelocity: Value? = nil, restThreshold: Double = 0.001, tag: String? = nil,
        completion: ((AnimationEnd) -> Void)? = nil
    ) {
        let key = PropertyKey(object: ObjectIdentifier(object), keyPath: keyPath)
        let now = time
        var velocity = initialVelocity ?? .zero
        if let previous = running.removeValue(forKey: key) {
            if previous.isAlive(), initialVelocity == nil, case .spring = motion, let v = previous.velocity(at: now) as? Value {
                velocity = v
            }
            previous.end(previous.isAlive() ? .retargeted : .cancelled)
        }
        let animation = PropertyAnimation(from: object[keyPath: keyPath], to: target, velocity: velocity,
                                          motion: motion, start: now + max(0, delay), restThreshold: restThreshold)
        started += 1
        running[key] = AnyAnimation(animation, apply: { [weak object] in object?[keyPath: keyPath] = $0 },
                                    isAlive: { [weak object] in object != nil }, tag: tag, order: started, completion: completion)
    }

    /// Lets a property coast from its current value at `velocity` (units per second) until `decay`
    /// stops it; a later spring on the same property takes over its velocity.
    public func decay<Root: AnyObject, Value: Animatable>(
        _ object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>, velocity: Value, _ decay: Decay = Decay(),
        completion: ((AnimationEnd) -> Void)? = nil
    ) {
        animate(object, keyPath, to: object[keyPath: keyPath] + decay.restingDistance(velocity: velocity),
                with: .decay(decay), initialVelocity: velocity, completion: completion)
    }

    /// The current velocity of an animated property, in its units per second (nil: not animating).
    public func velocity<Root: AnyObject, Value: Animatable>(of object: Root,
                                                             _ keyPath: ReferenceWritableKeyPath<Root, Value>) -> Value? {
        running[PropertyKey(object: ObjectIdentifier(object), keyPath: keyPath)]?.velocity(at: time) as? Value
    }

    public func isAnimating<Root: AnyObject, Value>(_ object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) -> Bool {
        running[PropertyKey(object: ObjectIdentifier(object), keyPath: keyPath)] != nil
    }

    /// Stops the property where it is now.
    public func cancel<Root: AnyObject, Value>(_ object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
        guard let animation = running.removeValue(forKey: PropertyKey(object: ObjectIdentifier(object), keyPath: keyPath))
        else { return }
        animation.end(.cancelled)
    }

    /// Stops every property of `object` where it is now (a frame, its centre, a coordinate of it …).
    public func cancelAll(of object: AnyObject) {
        cancel { key, _ in key.object == ObjectIdentifier(object) }
    }

    /// Stops every animation started with `tag`.
    public func cancelAll(tagged tag: String) {
        cancel { _, animation in animation.tag == tag }
    }

    private func cancel(where matches: (PropertyKey, AnyAnimation) -> Bool) {
        let ending = running.filter { matches($0.key, $0.value) }
        for key in ending.keys { running[key] = nil }
        for animation in ending.values { animation.end(.cancelled) }
    }

    /// Applies every animation's value for the clock's current time, then completes the ended ones.
    /// Both in the order the animations began, and every value is set before any completion runs: a
    /// completion that sets a property another animation just finished on (a cross-fade's landing puts
    /// the cell's alpha back) has the last word, on every run alike.
    public func tick() {
        let now = time
        var ended: [(PropertyKey, AnyAnimation)] = []
        for (key, animation) in running.sorted(by: { $0.value.order < $1.value.order }) {
            // The completion of one whose object went may have replaced or cancelled it.
            guard running[key] === animation else { continue }
            guard animation.isAlive() else {
                running[key] = nil
                animation.end(.cancelled)
                continue
            }
            if animation.apply(at: now) { ended.append((key, animation)) }
        }
        for (key, animation) in ended {
            // A completion that ran earlier in this loop may have replaced or cancelled it.
            guard running[key] === animation else { continue }
            running[key] = nil
            animation.end(.finished)
        }
    }

    /// Animation time: the clock, slowed down by `slowdown` (kept continuous when it changes).
    private var time: Double { timeOffset + (clock.now - lastSlowdownChange) / slowdown }

    public func setSlowdown(_ factor: Double) {
        precondition(factor > 0, "slowdown must be positive")
        timeOffset = time
        lastSlowdownChange = clock.now
        slowdown = factor
    }
}

struct PropertyKey: Hashable {
    let object: ObjectIdentifier
    let keyPath: AnyKeyPath
}

/// A type-erased running animation with its setter and its once-only completion.
final class AnyAnimation {
    private let step: (Double) -> Bool
    private let currentVelocity: (Double) -> Any
    private var completion: ((AnimationEnd) -> Void)?
    /// Whether the animated object still exists.
    let isAlive: () -> Bool
    let tag: String?
    /// When it began among the animator's animations (1 for the first).
    let order: Int

    init<Value: Animatable>(_ animation: PropertyAnimation<Value>, apply: @escaping (Value) -> Void,
                            isAlive: @escaping () -> Bool, tag: String?, order: Int, completion: ((AnimationEnd) -> Void)?) {
        self.isAlive = isAlive
        self.tag = tag
        self.order = order
        step = { now in
            let s = animation.state(at: now)
            apply(s.value)
            return s.done
        }
        currentVelocity = { animation.state(at: $0).velocity }
        self.completion = completion
    }

    func velocity(at now: Double) -> Any { currentVelocity(now) }

    /// Sets the value for `now`; true once the animation has ended.
    func apply(at now: Double) -> Bool { step(now) }

    func end(_ how: AnimationEnd) {
        let c = completion
        completion = nil
        c?(how)
    }
}
