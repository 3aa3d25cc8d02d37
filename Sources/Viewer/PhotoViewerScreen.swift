import Geometry
import Pixels
import SceneGraph
import Transitions

/// The full-screen photo: black background, the photo aspect-fit. (Paging, zooming and the
/// interactive dismissal come next.)
public final class PhotoViewerScreen: Screen, ZoomAnimatorDelegate {
    public let root = Node(name: "viewer")
    public let index: Int
    public let photoName: String
    private let photo = Node(name: "viewer.photo")
    public private(set) var size: Size

    public init(index: Int, photoName: String, image: PixelImage, size: Size) {
        self.index = index
        self.photoName = photoName
        self.size = size
        root.backgroundColor = .black
        photo.contentMode = .aspectFit
        photo.contentsName = photoName
        photo.image = image
        root.addChild(photo)
        resize(to: size)
    }

    public var image: PixelImage? { photo.image }

    /// A sharper decode of the same photo, when it arrives.
    public func setImage(_ image: PixelImage) {
        photo.image = image
        photo.frame = fitFrame
    }

    public func resize(to newSize: Size) {
        size = newSize
        root.frame = Rect(origin: .zero, size: size)
        photo.frame = fitFrame
    }

    /// The photo's aspect-fit frame in the window.
    public var fitFrame: Rect {
        guard let image = photo.image else { return Rect(origin: .zero, size: size) }
        return ContentMode.aspectFit.rect(forImageOfSize: Size(width: Double(image.width), height: Double(image.height)),
                                          in: Rect(origin: .zero, size: size))
    }

    // MARK: ZoomAnimatorDelegate

    public func transitionWillStartWith(zoomAnimator: ZoomAnimator) {}
    public func transitionDidEndWith(zoomAnimator: ZoomAnimator) {}
    public func referenceImageNode(for zoomAnimator: ZoomAnimator) -> Node? { photo }
    public func referenceImageFrameInTransitioningView(for zoomAnimator: ZoomAnimator) -> Rect? {
        photo.convert(photo.bounds, to: nil)
    }
}
