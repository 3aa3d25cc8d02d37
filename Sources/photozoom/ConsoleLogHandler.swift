import Foundation
import Library
import Logging

/// One plain line per message on standard error: `photozoom: warning: file.jpg: the file is empty`.
/// Whatever a message holds (a path from the command line, a dropped URI), its control characters
/// are written out, so it stays one line.
struct ConsoleLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix = event.level >= .warning ? "\(event.level): " : ""
        FileHandle.standardError.write(Data("photozoom: \(prefix)\(event.message.description.escapingControlCharacters)\n".utf8))
    }
}
