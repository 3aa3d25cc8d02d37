import Testing
@testable import Animation
@testable import Geometry

/// Which animations belong to what: stopping all of an object's or of a tag's at once, and objects
/// that go away while they move.
@Suite struct AnimatorOwnershipTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator

    init() { animator = Animator(clock: clock) }

    @Test func everyAnimationOfAnObjectStopsAtOnce() {
        let a = Box(), b = Box()
        var ends: [AnimationEnd] = []
        animator.animate(a, \.x, to: 10, with: .curve(.linear, duration: 1)) { ends.append($0) }
        animator.animate(a, \.center, to: Point(x: 5, y: 5), with: .spring(response: 0.5, dampingRatio: 1)) { ends.append($0) }
        animator.animate(a, \.center.y, to: 9, with: .curve(.linear, duration: 1)) { ends.append($0) }
        animator.animate(b, \.x, to: 10, with: .curve(.linear, duration: 1))
        clock.advanceFrame(); animator.tick()
        animator.cancelAll(of: a)
        #expect(ends == [.cancelled, .cancelled, .cancelled])
        #expect(!animator.isAnimating(a, \.x) && !animator.isAnimating(a, \.center) && animator.isAnimating(b, \.x))
    }

    @Test func everyAnimationOfATagStopsAtOnce() {
        let a = Box(), b = Box()
        animator.animate(a, \.x, to: 10, with: .curve(.linear, duration: 1), tag: "flight")
        animator.animate(b, \.alpha, to: 10, with: .curve(.linear, duration: 1), tag: "flight")
        animator.animate(b, \.x, to: 10, with: .curve(.linear, duration: 1))
        animator.cancelAll(tagged: "flight")
        #expect(!animator.isAnimating(a, \.x) && !animator.isAnimating(b, \.alpha) && animator.isAnimating(b, \.x))
    }

    /// An object let go while it moves takes its animations with it: they end (`.cancelled`), and the
    /// loop stops ticking for them.
    @Test func theAnimationsOfAnObjectThatIsGoneEnd() {
        var ends: [AnimationEnd] = []
        do {
            let gone = Box()
            animator.animate(gone, \.x, to: 10, with: .spring(response: 0.5, dampingRatio: 1)) { ends.append($0) }
        }
        clock.advanceFrame(); animator.tick()
        #expect(ends == [.cancelled] && !animator.isAnimating)
    }

    /// A new object that happens to get a dead one's address starts from rest: it inherits no
    /// velocity from the dead one's spring.
    @Test func aNewObjectAtADeadOnesAddressInheritsNothing() throws {
        var address: ObjectIdentifier?
        do {
            let old = Box()
            address = ObjectIdentifier(old)
            animator.animate(old, \.x, to: 1000, with: .spring(response: 0.5, dampingRatio: 1), initialVelocity: 5000)
        }
        // Allocate until one lands on the freed address: the allocator usually hands it back at once.
        // Under AddressSanitizer (`make sanitize`) freed memory waits in a 256 MiB quarantine first:
        // past the first thousand the boxes are let go at once, and they push the address out of it.
        var kept: [Box] = []
        var reused: Box?
        for i in 0..<20_000_000 where reused == nil {
            let d = Box()
            if ObjectIdentifier(d) == address { reused = d } else if i < 1000 { kept.append(d) }
        }
        let fresh = try #require(reused, "the allocator never reused the address")
        animator.animate(fresh, \.x, to: 10, with: .spring(response: 0.5, dampingRatio: 1))
        #expect(animator.velocity(of: fresh, \.x) == 0)
    }
}
