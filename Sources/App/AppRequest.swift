import Library

/// What the app asks of whoever runs it (`PhotoViewerApp.Request`).
public enum AppRequest: Equatable {
    case quit, screenshot, toggleFullScreen
    /// `r`: start recording, or stop and write the recording.
    case toggleRecording
    /// Ctrl+C in the viewer: put this photo on the clipboard.
    case copy(Photo)
}
