import Input

/// One line of an input script (`--script FILE`).
public enum ScriptCommand: Equatable, Sendable {
    case wait(ms: Double)
    case tap(x: Double, y: Double)
    case doubleTap(x: Double, y: Double)
    /// The primary pointer (or first finger) goes down.
    case down(x: Double, y: Double)
    /// Moves there over `ms` (a motion event every frame), or at once when nil.
    case move(x: Double, y: Double, ms: Double?)
    case up
    /// Scroll units (a wheel notch is 1), as wheel notches or a touchpad's smooth scrolling;
    /// `control`: with Ctrl held (zooms the viewer).
    case scroll(dx: Double, dy: Double, unit: ScrollUnit, control: Bool)
    /// An X keysym name, with the modifiers held (`key ctrl+c`).
    case key(String, modifiers: Modifiers = [])
    /// Two fingers about (x, y), from scale 1 to `scale`, over `ms` (300 when nil).
    case pinch(x: Double, y: Double, scale: Double, ms: Double?)
    /// Two fingers about (x, y), their distance kept, turned `degrees` clockwise over `ms` (300 when nil).
    case twist(x: Double, y: Double, degrees: Double, ms: Double?)
    /// A touchpad pinch with the pointer at (x, y), from scale 1 to `scale`, over `ms` (300 when nil).
    case touchpadPinch(x: Double, y: Double, scale: Double, ms: Double?)
    case resize(width: Int, height: Int)
    /// Waits until the screen has settled (nothing moves, every decode asked for is done), at most
    /// `maxMs`; the commands after it count their time from then.
    case settle(maxMs: Double)
    case screenshot(String)
    case dump(String)
}

/// A script line that can't be run: the whole script is refused before anything happens.
public struct ScriptError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let text: String
    public let reason: String

    public var description: String { "script line \(line): \(reason): \(text)" }
}
