import Foundation
import Geometry
import Imaging
import Input
import Library
import SystemPackage
import Testing
import TestSupport
@testable import App

/// Two fingers twisting the open photo at fit: past 20° it turns with them (the pinch neither zooms nor
/// closes), and let go it snaps to the nearest quarter with a spring, written to the file as Ctrl+R writes
/// it; short of an eighth it springs back straight.
@Suite struct TwistTests {
    static let size = Size(width: 600, height: 600)

    /// A folder holding grace_hopper.jpg (512x600, portrait) alone, opened in the viewer.
    func opened() throws -> (OpenViewer, TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let path = try folder.copy(TestImages.bundledFolder + "/grace_hopper.jpg", as: "grace.jpg")
        let v = OpenViewer(index: 0, size: Self.size, folders: [folder.path])
        v.app.writesPhotos = true
        return (v, folder, path)
    }

    /// Two fingers 100 px either side of the centre, turned to each of `degrees` on successive frames
    /// (their distance kept); lifted unless `hold`.
    func twist(_ v: OpenViewer, degrees: [Double], hold: Bool = false) {
        let center = Point(x: 300, y: 300)
        func fingers(_ phase: TouchPhase, _ degrees: Double) {
            let a = degrees * .pi / 180, d = Point(x: 100 * cos(a), y: 100 * sin(a))
            _ = v.app.handle(.touch(phase, id: 0, at: center - d, time: v.now))
            _ = v.app.handle(.touch(phase, id: 1, at: center + d, time: v.now))
        }
        fingers(.begin, 0)
        for angle in degrees {
            v.frames(1)
            fingers(.update, angle)
        }
        if !hold { fingers(.end, degrees.last ?? 0) }
    }

    func stillAngle(_ v: OpenViewer) -> Double? {
        v.app.root.descendant(named: "viewer.turningPhoto").map { atan2($0.transform.b, $0.transform.a) * 180 / .pi }
    }

    @Test func aTwistPastAnEighthTurnsThePhotoAQuarterAndItsFile() throws {
        let (v, folder, path) = try opened()
        twist(v, degrees: stride(from: 5.0, through: 85, by: 5).map { $0 }, hold: true)
        #expect(v.app.interaction.phase == .twisting)
        let held = try #require(stillAngle(v), "a still turns with the fingers")
        #expect(abs(held - 65) < 0.5, "85° of fingers, past the first 20°: \(held)")
        #expect(v.viewer.zoomScale == 1 && v.app.viewer != nil, "it neither zooms nor closes")
        _ = v.app.handle(.touch(.end, id: 0, at: Point(x: 300, y: 200), time: v.now))
        v.frames(4)
        let springing = try #require(stillAngle(v))
        #expect(springing > 65 && springing < 95, "on to the quarter: \(springing)")
        v.settle()
        #expect(stillAngle(v) == nil && v.photoFrame.width > v.photoFrame.height, "landscape now: \(v.photoFrame)")
        #expect(PhotoFacts.read(path: FilePath(path))?.orientation == .right)
        _ = folder
    }

    @Test func counterClockwiseHalfATurnIsTwoQuarters() throws {
        let (v, folder, path) = try opened()
        twist(v, degrees: stride(from: -10.0, through: -185, by: -15).map { $0 } + [-190])
        v.settle()
        #expect(v.photoFrame.height > v.photoFrame.width)
        #expect(PhotoFacts.read(path: FilePath(path))?.orientation == .down, "turned 180°")
        _ = folder
    }

    @Test func shortOfAnEighthItSpringsBackAndTheFileStays() throws {
        let (v, folder, path) = try opened()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let before = v.photoFrame
        twist(v, degrees: [10, 20, 30, 40, 50, 60])   // 40° past the start: short of 45°
        v.frames(3)
        #expect((stillAngle(v) ?? 0) > 0, "it springs back from where it was")
        v.settle()
        #expect(stillAngle(v) == nil && v.photoFrame == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        _ = folder
    }

    @Test func fingersThatSpreadFirstZoomAndATurnAfterThatDoesNotTwist() throws {
        let (v, folder, _) = try opened()
        let center = Point(x: 300, y: 300)
        var spread = 100.0, angle = 0.0
        func fingers(_ phase: TouchPhase) {
            let d = Point(x: spread * cos(angle), y: spread * sin(angle))
            _ = v.app.handle(.touch(phase, id: 0, at: center - d, time: v.now))
            _ = v.app.handle(.touch(phase, id: 1, at: center + d, time: v.now))
        }
        fingers(.begin)
        for _ in 0..<10 { v.frames(1); spread += 8; fingers(.update) }
        for _ in 0..<10 { v.frames(1); angle += 0.1; fingers(.update) }
        #expect(v.app.interaction.phase == .pinchZooming && stillAngle(v) == nil && v.viewer.zoomScale > 1.5)
        fingers(.end)
        _ = folder
    }
}
