import Geometry

/// One pointer's step, as the recognizers see it: the mouse's primary button or one finger.
public struct PointerEvent: Equatable, Sendable {
    public enum Phase: Sendable { case down, move, up, cancel }

    public var phase: Phase
    /// 0 for the mouse; a touch's id for a finger.
    public var id: Int
    public var location: Point
    /// Seconds (the server's millisecond timestamps / 1000, or the manual clock).
    public var time: Double

    public init(_ phase: Phase, id: Int = 0, at location: Point, time: Double) {
        self.phase = phase; self.id = id; self.location = location; self.time = time
    }
}
