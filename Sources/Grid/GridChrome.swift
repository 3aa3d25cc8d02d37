import Geometry
import SceneGraph

/// The grid's bars, as a user reads them: the title bar (the title or the search field, the count, the back button),
/// the tab bar, the view picker over it on a timeline's Library tab, and what the grid says when it has nothing to
/// show. The grid puts them in its scene and lays them out with its size.
public final class GridChrome {
    let titleBar: TitleBar
    let tabs = TabBar()
    let picker = ViewPicker()
    /// The tab bar's node. The app may lift it above every screen so that it can fade over them.
    public var tabBar: Node { tabs.node }
    /// The title bar's title: "Photos", "Albums", an album's name, "Years".
    public private(set) var title: String
    /// The tab shown.
    public private(set) var shownTab = GridTab.library
    private var emptyState: EmptyState?
    /// What the empty state says ("No Photos", and a line under it).
    private var emptyTitle = "No Photos", emptyMessage: String
    private var size = Size(width: 0, height: 0)

    init(title: String, count: Int, emptyMessage: String) {
        self.title = title
        self.emptyMessage = emptyMessage
        titleBar = TitleBar(title: title, count: count)
    }

    /// Their nodes, back to front, over the cells.
    var nodes: [Node] { [picker.node, titleBar.node, tabs.node] }

    /// The tab under `point` (window coordinates), if any.
    public func tab(at point: Point) -> GridTab? { tabs.tab(at: point, in: size) }

    /// Shows `tab`'s bar item as chosen, and its title bar: the title, or the search field.
    public func show(_ tab: GridTab) {
        shownTab = tab
        tabs.show(tab)
        titleBar.showSearchField(tab == .search)
    }

    /// The title bar says `title`, with a back button named `back` before it (nil: none).
    public func setTitle(_ title: String, back: String?) {
        self.title = title
        titleBar.setTitle(title, back: back)
        layOut(in: size)
    }

    /// Whether the title bar shows a back button (an album is open, or a view a tap went into).
    public var showsBackButton: Bool { !titleBar.back.isHidden }

    /// Whether `point` (window coordinates) is on the title bar's back button, while it shows.
    public func isBackButton(at point: Point) -> Bool { showsBackButton && titleBar.back.frame.contains(point) }

    /// The search field's words (nothing typed: what it searches, in grey), with the caret after them.
    public func showSearch(_ text: String) { titleBar.showSearch(text) }

    /// Whether the view picker shows.
    public var showsViewPicker: Bool { picker.isShown }
    /// The view whose segment of the picker is under `point` (window coordinates), while it shows.
    public func view(at point: Point) -> LibraryView? { picker.view(at: point) }

    /// What the grid says when it has no photos.
    public func setEmptyState(title: String, detail: String) {
        emptyTitle = title
        emptyMessage = detail
        emptyState?.title.text?.string = title
        emptyState?.detail.text?.string = detail
    }

    /// The title bar's count of `count` cells (`clips` of them clips, shown as `contents`), and the empty state in
    /// `root` while there are none.
    func showCount(_ count: Int, clips: Int, contents: GridContents, in root: Node) {
        titleBar.count.text = TitleBar.countText(count, clips: min(clips, count), covers: contents == .covers, cards: contents)
        layOut(in: size)   // the count's words take the room they need
        if count == 0, emptyState == nil {
            let state = EmptyState(title: emptyTitle, detail: emptyMessage)
            root.addChild(state.node)
            state.layOut(in: size)
            emptyState = state
        }
        if count > 0 {
            emptyState?.node.removeFromParent()
            emptyState = nil
        }
    }

    /// Across a window of `size`.
    func layOut(in size: Size) {
        self.size = size
        titleBar.layOut(width: size.width)
        tabs.layOut(in: size)
        picker.layOut(in: size)
        emptyState?.layOut(in: size)
    }
}
