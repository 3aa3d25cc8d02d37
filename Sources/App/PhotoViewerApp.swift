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
    /// Thumbnails are decoded for the cells on screen and this many screens above and below…
    static let prefetchScreens = 1.0
    /// …and dropped again once they are this many screens away, so memory follows the window, not the folder.
    static let keepScreens = 4.0

    private enum ThumbnailState { case none, requested, loaded, failed }

    public let photos: [Photo]
    public let grid: GridScreen
    public var root: Node { grid.root }
    public private(set) var needsDisplay = true

    private let loader: ThumbnailLoader
    private let logger: Logger
    private var thumbnails: [ThumbnailState]
    private var loadedIndices: Set<Int> = []

    public init(photos: [Photo], size: Size, emptyMessage: String, loader: ThumbnailLoader,
                logger: Logger = Logger(label: "photozoom")) {
        self.photos = photos
        self.loader = loader
        self.logger = logger
        grid = GridScreen(photoCount: photos.count, size: size, emptyMessage: emptyMessage)
        thumbnails = Array(repeating: .none, count: photos.count)
        updateThumbnails()
    }

    public var size: Size { grid.size }

    /// True when nothing is left to load or move: the frame on screen is final.
    public var isSettled: Bool { loader.isIdle }

    public func handle(_ event: InputEvent) -> Request? {
        switch event {
        case .scroll(_, let dy, _, _):
            grid.scrollWheel(notches: dy)
            updateThumbnails()
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
        updateThumbnails()
        needsDisplay = true
    }

    /// Puts finished thumbnails into their cells and logs the ones that failed.
    public func applyFinishedLoads() {
        for result in loader.takeFinished() {
            switch result.outcome {
            case .success(let image):
                grid.setThumbnail(.loaded(image), at: result.index)
                thumbnails[result.index] = .loaded
                loadedIndices.insert(result.index)
            case .failure(let error):
                logger.warning("\(photos[result.index].path): \(error)")
                grid.setThumbnail(.failed, at: result.index)
                thumbnails[result.index] = .failed
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

    /// The cells in view are asked for first, then their neighbours; far-away thumbnails are let go.
    /// A failed file is not tried (or reported) again.
    private func updateThumbnails() {
        let visible = grid.indices(withinScreens: 0)
        let wanted = grid.indices(withinScreens: PhotoViewerApp.prefetchScreens)
        for i in Array(visible) + wanted.filter({ !visible.contains($0) }) where thumbnails[i] == .none {
            thumbnails[i] = .requested
            loader.request(index: i, path: photos[i].path, side: PhotoViewerApp.thumbnailSide)
        }
        let kept = grid.indices(withinScreens: PhotoViewerApp.keepScreens)
        for i in loadedIndices where !kept.contains(i) {
            grid.setThumbnail(.loading, at: i)
            thumbnails[i] = .none
            loadedIndices.remove(i)
        }
    }
}
