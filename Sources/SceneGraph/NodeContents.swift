/// One line of text, centred vertically in a node's bounds.
public struct TextContents: Hashable, Sendable {
    public enum Weight: Hashable, Sendable { case regular, bold }
    public enum Alignment: Hashable, Sendable { case leading, center, trailing }

    public var string: String
    public var fontSize: Double
    public var weight: Weight
    public var color: Color
    public var alignment: Alignment

    public init(_ string: String, fontSize: Double, weight: Weight = .regular, color: Color,
                alignment: Alignment = .center) {
        self.string = string; self.fontSize = fontSize; self.weight = weight; self.color = color
        self.alignment = alignment
    }
}
