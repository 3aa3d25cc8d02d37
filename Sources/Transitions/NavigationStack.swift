import SceneGraph

/// A small navigation stack of screens in one container node. A push puts the new screen on top
/// and, once its transition is done, stops drawing the ones it covers; a pop shows the one below
/// again and, once done, removes the top.
public final class NavigationStack {
    public let container: Node
    public private(set) var screens: [Screen]
    public private(set) var isTransitioning = false

    public init(root: Screen, container: Node) {
        self.container = container
        screens = [root]
        container.addChild(root.root)
    }

    public var top: Screen { screens[screens.count - 1] }

    /// `transition` runs the animation and calls its argument when it is over.
    public func push(_ screen: Screen, transition: (@escaping () -> Void) -> Void) {
        guard !isTransitioning else { return }
        isTransitioning = true
        let covered = top
        screens.append(screen)
        container.addChild(screen.root)
        transition { [weak self] in
            covered.root.isHidden = true
            self?.isTransitioning = false
        }
    }

    /// `transition` calls its argument with true when the pop happened, false when it was called
    /// off (an interactive dismissal that sprang back): the top screen then stays.
    public func pop(transition: (@escaping (Bool) -> Void) -> Void) {
        guard !isTransitioning, screens.count > 1 else { return }
        isTransitioning = true
        let leaving = screens.removeLast()
        let below = top
        below.root.isHidden = false
        transition { [weak self] popped in
            if popped {
                leaving.root.removeFromParent()
            } else {
                self?.screens.append(leaving)
                below.root.isHidden = true
            }
            self?.isTransitioning = false
        }
    }
}
