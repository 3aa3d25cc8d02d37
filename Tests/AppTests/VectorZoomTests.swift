import Foundation
import Geometry
import Testing
import TestSupport
@testable import App

/// An SVG zoomed in the viewer is drawn again at the size it is shown: as sharp at 3× as at fit,
/// though it declares only 64×48 px.
@Suite struct VectorZoomTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ImagingTests/Fixtures").path

    @Test func zoomingAnSVGDrawsItAtTheZoomedSize() throws {
        let folder = try TemporaryFolder()
        try folder.copy(Self.fixtures + "/quadrants.svg", as: "quadrants.svg")
        let v = OpenViewer(index: 0, size: Size(width: 800, height: 600), folders: [folder.path])
        let atFit = try #require(v.viewer.image)
        #expect(atFit.width >= 799, "drawn at the fit size, not its declared 64 px: \(atFit.width)")
        v.doubleTap(Point(x: 400, y: 300))
        v.settle()
        #expect(v.viewer.zoomScale == 3)
        let zoomed = try #require(v.viewer.image)
        #expect(zoomed.width >= 2399, "drawn again at 3×: \(zoomed.width) px for 2400 shown")
    }
}
