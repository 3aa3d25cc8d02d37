/// `WIDTHxHEIGHT`, each 1…16384 px.
public struct WindowSize: CustomStringConvertible, Sendable {
    public static let maxSide = 16384
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...WindowSize.maxSide).contains(w), (1...WindowSize.maxSide).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}
