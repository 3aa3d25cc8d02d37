import Geometry
import Gestures
import Testing
import TestSupport
@testable import App

/// The details under the photo, on the bundled photos at 390x844: a swipe up lifts the photo with the
/// finger while the panel rises, and the release springs it shown; `i` and `Escape` hide them; a swipe
/// down past hidden pulls the photo out as a pull from the viewer does.
@Suite struct InfoPanelTests {
    static let size = Size(width: 390, height: 844)

    func texts(_ v: OpenViewer) -> [String] {
        v.viewer.info.root.children.compactMap { $0.text?.string }
    }

    @Test func aSwipeUpLiftsThePhotoWithTheFingerAndShowsItsDetails() {
        let v = OpenViewer(index: 0, size: Self.size)
        let before = v.photoFrame
        v.drag(from: Point(x: 195, y: 600), to: Point(x: 195, y: 500), steps: 10, hold: true)
        // Following the finger: the photo has risen as far as it has gone past the touch slop.
        #expect(abs(v.photoFrame.minY - (before.minY - 100 + GestureTuning.touchSlop)) < 1, "\(v.photoFrame) from \(before)")
        #expect(v.app.interaction.phase == .revealingInfo)
        v.lift(Point(x: 195, y: 500))
        v.settle()
        let info = v.viewer.info
        #expect(info.reveal == 1 && v.viewer.isInfoShown)
        // The panel along the bottom, the photo risen by half its height.
        #expect(info.root.frame.minY == Self.size.height - info.height)
        #expect(abs(v.photoFrame.minY - (before.minY - info.height / 2)) < 0.5)
        let said = texts(v)
        #expect(said.contains("File") && said.contains(v.name), "\(said)")
        #expect(said.contains("Format") && said.contains("JPEG") || said.contains("PNG"), "\(said)")

        // A swipe down (as far as the photo rose) hides them; the photo is back where it was.
        v.drag(from: Point(x: 195, y: 300), to: Point(x: 195, y: 300 + GestureTuning.touchSlop + info.height / 2))
        v.settle()
        #expect(!v.viewer.isInfoShown && info.reveal == 0 && info.root.isHidden)
        #expect(v.photoFrame == before)
        #expect(v.app.viewer != nil, "still open")
    }

    @Test func iAndEscapeShowAndHideThemAndPagingShowsTheNextPhotos() {
        let v = OpenViewer(index: 0, size: Self.size)
        _ = v.app.handle(.key(name: "i", modifiers: []))
        v.settle()
        #expect(v.viewer.isInfoShown && texts(v).contains(v.name))
        _ = v.app.handle(.key(name: "Right", modifiers: []))
        v.settle()
        #expect(texts(v).contains(v.app.photos[1].name), "the details follow the page: \(texts(v))")
        _ = v.app.handle(.key(name: "Escape", modifiers: []))
        v.settle()
        #expect(!v.viewer.isInfoShown && v.app.viewer != nil, "Escape hides the details first")
        _ = v.app.handle(.key(name: "Return", modifiers: [.alt]))
        v.settle()
        #expect(v.viewer.isInfoShown, "Alt+Return shows them")
        _ = v.app.handle(.key(name: "i", modifiers: []))
        v.settle()
        #expect(!v.viewer.isInfoShown)
    }

    @Test func aSwipeDownPastHiddenDetailsPullsThePhotoOut() {
        let v = OpenViewer(index: 0, size: Self.size)
        _ = v.app.handle(.key(name: "i", modifiers: []))
        v.settle()
        let lift = v.viewer.info.height / 2
        // Down the lift (hidden), then 250 points more: a pull, and its release closes the photo.
        v.drag(from: Point(x: 195, y: 300), to: Point(x: 195, y: 300 + lift + 250), steps: 20, hold: true)
        #expect(v.app.interaction.phase == .pulling)
        v.lift(Point(x: 195, y: 300 + lift + 250))
        v.settle()
        #expect(v.app.viewer == nil, "closed into the grid")
    }
}
