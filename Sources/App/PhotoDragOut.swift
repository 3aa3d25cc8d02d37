import Animation
import Geometry
import Library
import Pixels
import SceneGraph

/// A photo lifted by a long press (a grid cell, or the open photo) to be dragged into another
/// program: a small copy of it springs from where it was to the finger and follows it. Past the
/// window's edge the window system carries the drag on (XDND: the file and the picture); let go in
/// the window, the copy flies back where it came from; let go outside, it fades.
final class PhotoDragOut {
    /// The copy's longer side at the finger, points, and how far up and left of the finger its centre is
    /// (so the finger does not hide it).
    static let side = 120.0
    static let fingerOffset = Point(x: -24, y: -24)
    static let lift = Motion.spring(response: 0.25, dampingRatio: 0.8)
    static let flyBack = Motion.spring(response: 0.3, dampingRatio: 1)
    static let fade = Motion.curve(.easeOut, duration: 0.2)
    static let alpha = 0.9

    let photo: Photo
    /// The copy that follows the finger.
    let copy = Node(name: "dragOut")
    /// Where it was lifted from, window points.
    let origin: Rect

    init(photo: Photo, picture: PixelImage?, from origin: Rect) {
        self.photo = photo
        self.origin = origin
        copy.image = picture
        copy.contentMode = .aspectFill
        copy.clipsToBounds = true
        copy.cornerRadius = 8
        copy.backgroundColor = Color(white: 0.5)
        copy.frame = origin
    }

    /// The copy's frame with the finger at `point`: the origin's shape, `side` long.
    func frame(at point: Point) -> Rect {
        let scale = PhotoDragOut.side / max(origin.width, origin.height, 1)
        let size = Size(width: (origin.width * scale).rounded(), height: (origin.height * scale).rounded())
        let center = point + PhotoDragOut.fingerOffset
        return Rect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }
}
