import Testing
@testable import WaylandPlatform

/// The window's scale as the compositor's events change it: sway 1.7 offers no fractional-scale
/// protocol, so its events are played here; the outputs' path runs against sway in the window tests.
struct SurfaceScaleTests {
    @Test(arguments: [(120, 1.0), (150, 1.25), (180, 1.5), (210, 1.75), (240, 2.0)])
    func thePreferredFractionalScaleIsInHundredTwentieths(numerator: UInt32, scale: Double) {
        var surface = SurfaceScale<Int>(opening: 1)
        surface.preferredScale(numerator)
        #expect(surface.current == scale)
    }

    @Test func withoutAPreferredScaleTheSharpestOutputTheSurfaceIsOnWins() {
        var surface = SurfaceScale<Int>(opening: 2)
        #expect(surface.current == 2, "before the surface is on any output: the scale it opened at")
        surface.entered(1, scale: 1)
        #expect(surface.current == 1)
        surface.entered(2, scale: 1.5)
        #expect(surface.current == 1.5, "across two outputs")
        surface.left(2)
        #expect(surface.current == 1, "moved off the 150 % one")
    }

    @Test func thePreferredScaleOutranksTheOutputsAndZeroSaysNothing() {
        var surface = SurfaceScale<Int>(opening: 1)
        surface.entered(1, scale: 2)
        surface.preferredScale(150)
        #expect(surface.current == 1.25)
        surface.preferredScale(0)
        #expect(surface.current == 1.25)
        surface.left(1)
        #expect(surface.current == 1.25)
    }
}
