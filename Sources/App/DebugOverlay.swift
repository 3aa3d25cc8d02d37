import Geometry
import SceneGraph

/// The `d` key's overlay: the drag's velocity and translation, the photo's scale, the two alphas,
/// the page's zoom, which way a release would go now, the last frame's cost (draw, present, idle), and
/// the pixel size of the image the photo is drawn from.
final class DebugOverlay {
    static let lineHeight = 18.0
    static let width = 330.0
    let root = Node(name: "debugOverlay")
    private var lines: [Node] = []

    init() {
        root.backgroundColor = Color(white: 0, alpha: 0.65)
        root.cornerRadius = 8
    }

    func show(_ record: MotionTraceRecord, scale: Double?, release: String?, timing: FrameTiming?, at origin: Point) {
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        func pair(_ p: [Double]?) -> String { p.map { "(\(Int($0[0].rounded())), \(Int($0[1].rounded())))" } ?? "–" }
        let text = [
            "\(record.screen) · \(record.flight)\(record.flightMover.map { " by \($0)" } ?? "") · \(record.phase)",
            "drag \(pair(record.translation)) px  v \(pair(record.velocity)) px/s",
            "background \(f(record.backgroundAlpha))  tab bar \(f(record.tabBarAlpha))  scale \(scale.map(f) ?? "–")",
            "zoom " + (record.zoom.map { "\(f($0))× fit" } ?? "–"),
            "release → \(release ?? "–")",
            "frame " + (timing.map { "draw \(f($0.draw))  present \(f($0.present))  idle \(f($0.idle)) ms" } ?? "–"),
            "image " + (record.imagePixels.map { "\($0[0])×\($0[1]) px" } ?? "–"),
        ]
        while lines.count < text.count {
            let line = Node(name: "debugOverlay.line.\(lines.count)")
            lines.append(line)
            root.addChild(line)
        }
        for (i, string) in text.enumerated() {
            lines[i].text = TextContents(string, fontSize: 12, color: .white, alignment: .leading)
            lines[i].frame = Rect(x: 10, y: 6 + Double(i) * DebugOverlay.lineHeight, width: DebugOverlay.width - 20,
                                  height: DebugOverlay.lineHeight)
        }
        root.frame = Rect(x: origin.x, y: origin.y, width: DebugOverlay.width,
                          height: 12 + Double(text.count) * DebugOverlay.lineHeight)
    }
}

/// The `d` key's overlay, while it shows: the motion's state, the release's prediction and the last frame's cost.
final class DebugOverlayController {
    private var overlay: DebugOverlay?

    /// Shows the overlay over `root`, or hides it.
    func toggle(over root: Node, showing app: PhotoViewerApp) {
        if let overlay {
            overlay.root.removeFromParent()
            self.overlay = nil
        } else {
            let overlay = DebugOverlay()
            root.addChild(overlay.root)
            self.overlay = overlay
            update(showing: app)
        }
    }

    /// Says what `app` is doing now (each tick, while it shows).
    func update(showing app: PhotoViewerApp) {
        guard let overlay else { return }
        let navigator = app.navigator
        let release = app.interaction.activeDrag.flatMap { navigator.releasePrediction(translation: $0.translation, velocity: $0.velocity) }
        overlay.show(app.traceRecord, scale: navigator.flyingScale, release: release, timing: app.lastFrameTiming,
                     at: Point(x: 12, y: 64))
    }
}
