import Foundation
import Glibc
import SystemPackage

/// The desktop's applications for a file type, as a file manager's "Open With" lists them: the
/// `.desktop` files (Desktop Entry specification) under `$XDG_DATA_HOME/applications` and each
/// `$XDG_DATA_DIRS/applications`, ordered by the MIME applications specification's `mimeapps.list`
/// (the default first, then the added associations, then every other that says it opens the type; the
/// removed ones left out).
public struct DesktopApplications: Sendable {
    /// One application, as its `.desktop` file describes it.
    public struct Entry: Sendable, Equatable {
        /// Its desktop file ID ("org.gnome.Loupe.desktop").
        public let id: String
        public let name: String
        /// The Exec line, unexpanded.
        let exec: String
        let icon: String?
        /// Where its file is.
        let file: String
        let mimeTypes: [String]
    }

    /// Every application that can be shown, by ID (the first found of an ID wins, as the data
    /// folders' order says).
    let entries: [String: Entry]
    /// `mimeapps.list`'s associations, by MIME type, the first found first.
    let defaults: [String: [String]]
    let added: [String: [String]]
    let removed: [String: Set<String>]

    /// The applications of `environment`'s data and config folders.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? "/nonexistent"
        func folder(_ key: String, _ fallback: String) -> String {
            environment[key].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? fallback
        }
        func folders(_ key: String, _ fallback: String) -> [String] {
            let listed = (environment[key] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return listed.isEmpty ? fallback.split(separator: ":").map(String.init) : listed
        }
        let dataFolders = [folder("XDG_DATA_HOME", home + "/.local/share")] + folders("XDG_DATA_DIRS", "/usr/local/share:/usr/share")
        var entries: [String: Entry] = [:]
        for data in dataFolders {
            for (id, file) in Self.desktopFiles(in: data + "/applications") where entries[id] == nil {
                if let entry = Self.entry(id: id, file: file) { entries[id] = entry } else { entries[id] = Entry.hidden }
            }
        }
        self.entries = entries.filter { $0.value != Entry.hidden }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        let configFolders = [folder("XDG_CONFIG_HOME", home + "/.config")] + folders("XDG_CONFIG_DIRS", "/etc/xdg")
        let associations = Associations(lists: Self.associationLists(config: configFolders, data: dataFolders, desktops: desktops))
        defaults = associations.defaults
        added = associations.added
        removed = associations.removed
    }

    /// The association files, highest precedence first (the MIME applications specification): in each config
    /// folder, then each data folder's `applications`, the current desktops' `$desktop-mimeapps.list` before
    /// `mimeapps.list`; a data folder's old `defaults.list` after them, read as defaults.
    static func associationLists(config: [String], data: [String], desktops: [String]) -> [(path: String, isDefaultsList: Bool)] {
        let folders = config + data.map { $0 + "/applications" }
        return folders.flatMap { folder -> [(path: String, isDefaultsList: Bool)] in
            desktops.map { (folder + "/\($0)-mimeapps.list", false) } + [(folder + "/mimeapps.list", false)]
                + (config.contains(folder) ? [] : [(folder + "/defaults.list", true)])
        }
    }

    /// The associations of the lists read in precedence order: a removal in one list takes away what lower
    /// ones add (and what `.desktop` files say), never what it or a higher one adds.
    struct Associations {
        var defaults: [String: [String]] = [:], added: [String: [String]] = [:], removed: [String: Set<String>] = [:]

        init(lists: [(path: String, isDefaultsList: Bool)]) {
            for (path, isDefaultsList) in lists {
                guard let groups = try? DesktopFile.groups(String(contentsOfFile: path, encoding: .utf8)) else { continue }
                for (type, ids) in groups["Default Applications"] ?? [:] {
                    defaults[type, default: []] += DesktopFile.list(ids).filter { !(removed[type]?.contains($0) ?? false) }
                }
                if isDefaultsList { continue }
                for (type, ids) in groups["Added Associations"] ?? [:] {
                    added[type, default: []] += DesktopFile.list(ids).filter { !(removed[type]?.contains($0) ?? false) }
                }
                for (type, ids) in groups["Removed Associations"] ?? [:] { removed[type, default: []].formUnion(DesktopFile.list(ids)) }
            }
        }
    }

    /// The applications that open `mimeType`: the default, the added ones, then the rest by name.
    public func applications(for mimeType: String) -> [Entry] {
        let gone = removed[mimeType] ?? []
        var ordered: [Entry] = []
        func take(_ id: String, unlessRemoved: Bool) {
            guard !(unlessRemoved && gone.contains(id)), let entry = entries[id], !ordered.contains(entry) else { return }
            ordered.append(entry)
        }
        // Defaults and additions were weighed against the removals of higher lists as they were read.
        (defaults[mimeType] ?? []).forEach { take($0, unlessRemoved: false) }
        (added[mimeType] ?? []).forEach { take($0, unlessRemoved: false) }
        entries.values.filter { $0.mimeTypes.contains(mimeType) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map(\.id)
            .forEach { take($0, unlessRemoved: true) }
        return ordered
    }

    /// The applications for the first of `types` (a file's own type, then its parents) and after them those
    /// of the others, each once.
    public func applications(forAny types: [String]) -> [Entry] {
        var all: [Entry] = []
        for entry in types.flatMap(applications(for:)) where !all.contains(entry) { all.append(entry) }
        return all
    }

    /// What runs `entry` on the file at `path`, as the bytes of each argument (a name that is not UTF-8 is
    /// passed as it is): its Exec line split as the specification quotes it, its field codes filled (`%f %F`
    /// the path, `%u %U` its `file://` URI, `%i` the icon, `%c` the name, `%k` the desktop file); the path
    /// after the rest when the line names no file. Nil for a line that cannot be split (an unterminated quote).
    public static func command(for entry: Entry, opening path: FilePath) -> [[UInt8]]? {
        guard let words = DesktopFile.splitMarkingQuotes(entry.exec), !words.isEmpty else { return nil }
        let file = path.bytes, uri = Array(ThumbnailCache.uri(ofPath: path).utf8)
        var out: [[UInt8]] = [], namedFile = false
        for word in words {
            switch String(word.map(\.character)) {
            case "%f", "%F": out.append(file); namedFile = true
            case "%u", "%U": out.append(uri); namedFile = true
            case "%i": if let icon = entry.icon { out += [Array("--icon".utf8), Array(icon.utf8)] }
            default:
                let (expanded, names) = expand(word, entry: entry, file: file, uri: uri)
                out.append(expanded)
                namedFile = namedFile || names
            }
        }
        return namedFile ? out : out + [file]
    }

    /// A word with field codes inside it, filled; and whether it names the file. Within double quotes a value
    /// lands inside a string a shell may read (`sh -c "eog %f"`): it is quoted for the shell, as GLib and KIO
    /// quote every expansion, so that a file named `a$(touch pwned).jpg` is a name and never a command.
    private static func expand(_ word: [DesktopFile.ExecCharacter], entry: Entry, file: [UInt8], uri: [UInt8]) -> ([UInt8], Bool) {
        var expanded: [UInt8] = [], namedFile = false, codes = word.makeIterator()
        while let c = codes.next() {
            guard c.character == "%" else { expanded += Array(String(c.character).utf8); continue }
            let value: [UInt8]
            switch codes.next()?.character {
            case "%": expanded += Array("%".utf8); continue
            case "c": value = Array(entry.name.utf8)
            case "k": value = Array(entry.file.utf8)
            case "f", "F": value = file; namedFile = true
            case "u", "U": value = uri; namedFile = true
            default: continue   // deprecated and unknown codes are removed
            }
            expanded += c.isQuoted ? DesktopFile.shellQuoted(value) : value
        }
        return (expanded, namedFile)
    }

    /// The `.desktop` files under `folder` (its subfolders too), by desktop file ID: the path below `folder`
    /// with `/` as `-`.
    private static func desktopFiles(in folder: String, prefix: String = "", depth: Int = 0) -> [(String, String)] {
        guard depth < 4, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.sorted().flatMap { name -> [(String, String)] in
            let path = folder + "/" + name
            if name.hasSuffix(".desktop") { return [(prefix + name, path)] }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
            return desktopFiles(in: path, prefix: prefix + name + "-", depth: depth + 1)
        }
    }

    /// The application a `.desktop` file describes; nil when it is hidden, not an application, runs nothing,
    /// or runs in a terminal, which the viewer does not open (it then hides the same ID further down the
    /// folders, as the specification says). One not shown in menus (`NoDisplay`) still opens its types.
    private static func entry(id: String, file: String) -> Entry? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
              let group = DesktopFile.groups(text)["Desktop Entry"],
              group["Type"] == "Application", group["Hidden"] != "true", group["Terminal"] != "true",
              let name = group["Name"], let exec = group["Exec"], !exec.isEmpty else { return nil }
        if let tryExec = group["TryExec"], !isExecutable(tryExec) { return nil }
        return Entry(id: id, name: name, exec: exec, icon: group["Icon"], file: file,
                     mimeTypes: DesktopFile.list(group["MimeType"] ?? ""))
    }

    /// A program by its path, or found on `$PATH`, that may be run.
    private static func isExecutable(_ program: String) -> Bool {
        if program.hasPrefix("/") { return access(program, X_OK) == 0 }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}

extension DesktopApplications.Entry {
    /// Stands for a file that hides its ID from the folders after it.
    static let hidden = DesktopApplications.Entry(id: "", name: "", exec: "", icon: nil, file: "", mimeTypes: [])
}

/// The Desktop Entry file format: `[Group]` headers, `Key=value` lines (localized keys, `Key[xx]`, are
/// left to the unlocalized one), `#` comments; values with `\s \n \t \r \\` escapes, lists separated by `;`.
enum DesktopFile {
    static func groups(_ text: String) -> [String: [String: String]] {
        var groups: [String: [String: String]] = [:], current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.contains("["), groups[current]?[key] == nil else { continue }
            groups[current, default: [:]][key] = unescaped(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
        return groups
    }

    /// A `;`-separated list (its last `;` optional).
    static func list(_ value: String) -> [String] {
        value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func unescaped(_ value: String) -> String {
        var out = "", chars = value.makeIterator()
        while let c = chars.next() {
            guard c == "\\" else { out.append(c); continue }
            switch chars.next() {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            case let other?: out.append("\\"); out.append(other)   // kept for the Exec line's own quoting
            case nil: out.append("\\")
            }
        }
        return out
    }

    /// A character of an Exec line's word, and whether it stood inside double quotes.
    struct ExecCharacter {
        let character: Character
        let isQuoted: Bool
    }

    /// An Exec line's words: spaces separate them; a word in double quotes keeps its spaces, with `\"`,
    /// `` \` ``, `\$` and `\\` inside standing for the character. Nil for an unterminated quote.
    static func split(_ line: String) -> [String]? {
        splitMarkingQuotes(line)?.map { String($0.map(\.character)) }
    }

    /// `split(_:)`, each character marked with whether it was quoted.
    static func splitMarkingQuotes(_ line: String) -> [[ExecCharacter]]? {
        var words: [[ExecCharacter]] = [], word: [ExecCharacter] = [], inWord = false, quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false; continue }
                if c == "\\", let next = chars.next() {
                    if !"\"`$\\".contains(next) { word.append(ExecCharacter(character: "\\", isQuoted: true)) }
                    word.append(ExecCharacter(character: next, isQuoted: true))
                    continue
                }
                word.append(ExecCharacter(character: c, isQuoted: true))
            } else if c == "\"" {
                quoted = true
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(word) }
                word = []
                inWord = false
            } else {
                word.append(ExecCharacter(character: c, isQuoted: false))
                inWord = true
            }
        }
        guard !quoted else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// `bytes` as one word for a POSIX shell: in single quotes, each `'` written `'\''` (GLib's g_shell_quote).
    static func shellQuoted(_ bytes: [UInt8]) -> [UInt8] {
        let quote = UInt8(ascii: "'")
        return [quote] + bytes.flatMap { $0 == quote ? Array("'\\''".utf8) : [$0] } + [quote]
    }
}
