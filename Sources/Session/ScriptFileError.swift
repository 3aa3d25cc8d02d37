/// A script that can't be read or run: one line, and nothing happens.
public struct ScriptFileError: Error, CustomStringConvertible {
    let message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}
