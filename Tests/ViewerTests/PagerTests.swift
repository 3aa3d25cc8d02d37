import Animation
import Geometry
import Pixels
import Testing
import Viewer

/// The pager on its own, on a bare Animator: five pages of 400×300, 10 px apart.
@Suite struct PagerTests {
    let clock = ManualClock(fps: 60)
    let animator: Animator
    let viewer: PhotoViewerScreen
    let pitch = 410.0

    init() {
        animator = Animator(clock: clock)
        viewer = PhotoViewerScreen(index: 2, count: 5, size: Size(width: 400, height: 300), animator: animator,
                                   name: { "photo \($0)" }, picture: { _ in PixelImage(width: 40, height: 30, isOpaque: true) })
    }

    func settle() -> Int {
        var frames = 0
        while animator.isAnimating, frames < 600 { clock.advanceFrame(); animator.tick(); frames += 1 }
        return frames
    }

    /// Let go past half a page, or faster than 500 px/s, and the page turns; otherwise it goes back.
    @Test(arguments: [(-210.0, 0.0, 3), (-190, 0, 2), (-60, -600, 3), (60, 600, 1), (-60, -400, 2)])
    func aDragTurnsThePageByDistanceOrSpeed(translation: Double, velocity: Double, page: Int) {
        viewer.beginPaging()
        viewer.dragPaging(translation: translation)
        viewer.endPaging(velocity: velocity)
        _ = settle()
        #expect(viewer.index == page && viewer.pagingOffset == Double(page) * pitch)
    }

    /// Past the first page the pages rubber-band: they follow less than the finger.
    @Test func pastTheEndsThePagesRubberBand() {
        let first = PhotoViewerScreen(index: 0, count: 5, size: Size(width: 400, height: 300), animator: animator,
                                      name: { "\($0)" }, picture: { _ in nil })
        first.beginPaging()
        first.dragPaging(translation: 100)
        #expect(first.pagingOffset < 0 && first.pagingOffset > -100)
    }

    /// A key slides the next page in within 0.25 s; a second key during the slide goes on to the one after.
    @Test func keysSlideAQuarterSecondAndAddUp() {
        var settled: [Int] = []
        viewer.onPageSettled = { settled.append($0) }
        viewer.page(by: 1)
        #expect(settle() <= 15)
        viewer.page(by: 1)
        for _ in 0..<5 { clock.advanceFrame(); animator.tick() }
        viewer.page(by: -1)
        _ = settle()
        #expect(viewer.index == 3 && settled == [3, 3])
    }

    /// A pull during a settle stops the page where it shows; when the photo springs back, the page settles.
    @Test func aPullStopsASettlingPageAndItSettlesAfter() {
        viewer.page(by: 1)
        for _ in 0..<4 { clock.advanceFrame(); animator.tick() }
        let shown = viewer.pagingOffset
        viewer.pullBegan()
        #expect(!viewer.isPaging && viewer.pagingOffset == shown && shown < 3 * pitch)
        viewer.pullCancelled()
        _ = settle()
        #expect(viewer.pagingOffset == 3 * pitch)
    }
}
