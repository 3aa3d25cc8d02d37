import Foundation
import Geometry
import Grid
import Input
import Logging
import SceneGraph

/// The viewer, free of any windowing system: it owns the scene, takes platform-free input and
/// says when it needs drawing. The window loop, a headless run and the tests all drive it the same.
public final class PhotoViewerApp {
    /// What the app asks of whoever runs it.
    public enum Request: Equatable {
        case quit
        case screenshot
    }

    /// Thumbnails are decoded to cover this many px a side: the largest grid cell.
    static let thumbnailSide = Int(GridLayout.maxCell)

    public let photos: [Photo]
    public let grid: GridScreen
    public var root: Node { grid.root }
    public private(set) var needsDisplay = true

    private let loader: ThumbnailLoader
    private let logger: Logger

    public init(photos: [Photo], size: Size, emptyMessage: String, loader: ThumbnailLoader,
                logger: Logger = Logger(label: "photozoom")) {
        self.photos = photos
        self.loader = loader
        self.logger = logger
        grid = GridScreen(photoCount: photos.count, size: size, emptyMessage: emptyMessage)
        requestThumbnails()
    }

    public var size: Size { grid.size }

    /// True when nothing is left to load or move: the frame on screen is final.
    public var isSettled: Bool { loader.isIdle }

    public func handle(_ event: InputEvent) -> Request? {
        switch event {
        case .scroll(_, let dy, _, _):
            grid.scrollWheel(notches: dy)
            needsDisplay = true
        case .key(let name, _):
            switch name {
            case "q": return .quit
            case "s": return .screenshot
            default: break
            }
        case .pointerDown, .pointerMove, .pointerUp:
            break
        }
        return nil
    }

    public func resize(to size: Size) {
        guard size != grid.size else { return }
        grid.resize(to: size)
        needsDisplay = true
    }

    /// Puts finished thumbnails into their cells and logs the ones that failed.
    public func applyFinishedLoads() {
        for result in loader.takeFinished() {
            switch result.outcome {
            case .success(let image):
                grid.setThumbnail(.loaded(image), at: result.index)
            case .failure(let error):
                logger.warning("\(photos[result.index].path): \(error)")
                grid.setThumbnail(.failed, at: result.index)
            }
            needsDisplay = true
        }
    }

    /// Blocks until every thumbnail is decoded and placed (headless runs).
    public func settle() {
        loader.waitUntilIdle()
        applyFinishedLoads()
    }

    public func didDisplay() { needsDisplay = false }

    /// The window lost its contents (an expose): draw everything again.
    public func setNeedsDisplay() { needsDisplay = true }

    private func requestThumbnails() {
        for (i, photo) in photos.enumerated() {
            loader.request(index: i, path: photo.path, side: PhotoViewerApp.thumbnailSide)
        }
    }
}
