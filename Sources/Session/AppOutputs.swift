import App
import Imaging
import Outputs
import Rendering

/// What the app shows, written to a file: a screenshot as the window shows it (in sRGB), or the scene tree.
enum AppOutputs {
    /// `colour`: the space the window's pixels are in (the display's); the file is in sRGB.
    static func screenshot(of app: PhotoViewerApp, renderer: SceneRenderer, colour: ColourTarget = .sRGB, to path: String) throws {
        let s = app.pixelScale
        let image = try renderer.render(app.root, width: Int((app.size.width * s).rounded()), height: Int((app.size.height * s).rounded()),
                                        scale: s)
        colour.convertToSRGB(image)
        try ScreenshotFile.write(image, to: path)
    }

    /// The scene tree as JSON (a script's `dump`).
    static func dump(of app: PhotoViewerApp, to path: String) throws {
        try ScreenshotFile.writeDump(SceneDump.json(app.root), to: path)
    }
}
