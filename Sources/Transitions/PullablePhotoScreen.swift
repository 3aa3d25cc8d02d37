import Pixels

/// The photo screen as the transition controller sees it: the photo it shows (the copy that flies and that a pull
/// carries), and what it does as a finger takes that photo and as the photo springs back.
public protocol PullablePhotoScreen: Screen, ZoomAnimatorDelegate {
    /// The picture the screen shows now; nil while it has none to fly.
    var image: PixelImage? { get }
    var photoName: String { get }
    /// A pull took the photo: it comes back to fit, and what covers it (bars, a page still settling) gets out of
    /// the way.
    func pullBegan()
    /// The photo sprang back into the screen.
    func pullCancelled()
}
