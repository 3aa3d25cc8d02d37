import Geometry
import SceneGraph

/// One full-window screen of the app (the grid, the photo viewer).
public protocol Screen: AnyObject {
    var root: Node { get }
    func resize(to size: Size)
}
