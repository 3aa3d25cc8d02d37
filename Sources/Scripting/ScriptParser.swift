import Foundation
import Input

/// Reads an input script: one command per line, `#` starts a comment, blank lines are skipped.
///
///     wait MS | tap X Y | double-tap X Y | down X Y | move X Y [MS] | up | scroll DX DY [ctrl]
///     key [ctrl+|shift+|alt+]NAME | pinch X Y SCALE [MS] | twist X Y DEGREES [MS] | touchpad-pinch X Y SCALE [MS]
///     resize W H | settle [MS] | screenshot FILE | dump FILE
public enum ScriptParser {
    public static func parse(_ text: String) throws(ScriptError) -> [(line: Int, command: ScriptCommand)] {
        var commands: [(Int, ScriptCommand)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let name = words.first else { continue }
            let text = String(raw).trimmingCharacters(in: [" ", "\t", "\r"])
            do throws(Reason) {
                commands.append((index + 1, try command(name, Array(words.dropFirst()))))
            } catch {
                throw ScriptError(line: index + 1, text: text, reason: error.text)
            }
        }
        return commands
    }

    struct Reason: Error { let text: String }

    /// What a script may ask: enough for any use, and small enough that no command can run away with
    /// the clock (a gesture lays out one event a frame) or with the window.
    enum Limits {
        /// A day.
        static let waitMS = 86_400_000.0
        /// How long `settle` waits when it is not told: ten seconds.
        static let settleMS = 10_000.0
        /// Ten minutes.
        static let gestureMS = 600_000.0
        /// Points from the window's corner, either way.
        static let coordinate = 1_000_000.0
        /// Notches (or smooth-scroll units) in one scroll.
        static let scroll = 100.0
    }

    /// `ctrl+shift+c`: the keysym name after the modifiers.
    private static func key(_ chord: String) throws(Reason) -> ScriptCommand {
        var parts = chord.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // `plus` is the name of +, but a lone "+" is accepted too.
        if chord.hasSuffix("+") { parts = Array(parts.dropLast(2)) + ["plus"] }
        let name = parts.removeLast()
        var modifiers: Modifiers = []
        for part in parts {
            switch part.lowercased() {
            case "ctrl", "control": modifiers.insert(.control)
            case "shift": modifiers.insert(.shift)
            case "alt": modifiers.insert(.alt)
            default: throw Reason(text: "unknown modifier \"\(part)\" (ctrl, shift or alt)")
            }
        }
        guard !name.isEmpty else { throw Reason(text: "a key needs a name after its modifiers") }
        return .key(name, modifiers: modifiers)
    }

    private static func command(_ name: String, _ args: [String]) throws(Reason) -> ScriptCommand {
        var a = Arguments(name: name, words: args)
        let command: ScriptCommand
        switch name {
        case "wait": command = .wait(ms: try a.number("MS", min: 0, max: Limits.waitMS))
        case "tap": command = .tap(x: try a.coordinate("X"), y: try a.coordinate("Y"))
        case "double-tap": command = .doubleTap(x: try a.coordinate("X"), y: try a.coordinate("Y"))
        case "down": command = .down(x: try a.coordinate("X"), y: try a.coordinate("Y"))
        case "move": command = .move(x: try a.coordinate("X"), y: try a.coordinate("Y"), ms: try a.optionalNumber("MS", min: 0, max: Limits.gestureMS))
        case "up": command = .up
        case "scroll":
            // Whole numbers are a wheel's notches, fractions a touchpad's smooth scrolling.
            let dx = try a.number("DX", min: -Limits.scroll, max: Limits.scroll), dy = try a.number("DY", min: -Limits.scroll, max: Limits.scroll)
            let unit: ScrollUnit = dx == dx.rounded() && dy == dy.rounded() ? .notches : .smooth
            command = .scroll(dx: dx, dy: dy, unit: unit, control: try a.optionalFlag("ctrl"))
        case "key": command = try key(a.word("NAME"))
        case "pinch":
            command = .pinch(x: try a.coordinate("X"), y: try a.coordinate("Y"), scale: try a.number("SCALE", min: 0.01, max: 100),
                             ms: try a.optionalNumber("MS", min: 0, max: Limits.gestureMS))
        case "twist":
            command = .twist(x: try a.coordinate("X"), y: try a.coordinate("Y"), degrees: try a.number("DEGREES", min: -3600, max: 3600),
                             ms: try a.optionalNumber("MS", min: 0, max: Limits.gestureMS))
        case "touchpad-pinch":
            command = .touchpadPinch(x: try a.coordinate("X"), y: try a.coordinate("Y"), scale: try a.number("SCALE", min: 0.01, max: 100),
                                     ms: try a.optionalNumber("MS", min: 0, max: Limits.gestureMS))
        case "resize": command = .resize(width: try a.integer("W"), height: try a.integer("H"))
        case "settle": command = .settle(maxMs: try a.optionalNumber("MS", min: 0, max: Limits.waitMS) ?? Limits.settleMS)
        case "screenshot": command = .screenshot(try a.word("FILE"))
        case "dump": command = .dump(try a.word("FILE"))
        default: throw Reason(text: "unknown command '\(name)'")
        }
        try a.finish()
        return command
    }
}

/// Takes a command's arguments in order, naming what is missing or wrong.
private struct Arguments {
    let name: String
    let words: [String]
    var next = 0

    init(name: String, words: [String]) { self.name = name; self.words = words }

    mutating func word(_ what: String) throws(ScriptParser.Reason) -> String {
        guard next < words.count else { throw .init(text: "'\(name)' needs \(what)") }
        defer { next += 1 }
        return words[next]
    }

    mutating func number(_ what: String, min: Double, max: Double) throws(ScriptParser.Reason) -> Double {
        let w = try word(what)
        guard let value = Double(w), value.isFinite else { throw .init(text: "\(what) must be a number, not '\(w)'") }
        guard value >= min else { throw .init(text: "\(what) must be at least \(min), not \(w)") }
        guard value <= max else { throw .init(text: "\(what) must be at most \(max), not \(w)") }
        return value
    }

    mutating func coordinate(_ what: String) throws(ScriptParser.Reason) -> Double {
        try number(what, min: -ScriptParser.Limits.coordinate, max: ScriptParser.Limits.coordinate)
    }

    mutating func optionalNumber(_ what: String, min: Double, max: Double) throws(ScriptParser.Reason) -> Double? {
        next < words.count ? try number(what, min: min, max: max) : nil
    }

    /// `flag` as the last word, or nothing.
    mutating func optionalFlag(_ flag: String) throws(ScriptParser.Reason) -> Bool {
        guard next < words.count else { return false }
        let w = try word(flag)
        guard w == flag else { throw .init(text: "expected '\(flag)' or nothing, not '\(w)'") }
        return true
    }

    mutating func integer(_ what: String) throws(ScriptParser.Reason) -> Int {
        let w = try word(what)
        guard let value = Int(w), (1...16384).contains(value) else {
            throw .init(text: "\(what) must be a whole number of pixels from 1 to 16384, not '\(w)'")
        }
        return value
    }

    func finish() throws(ScriptParser.Reason) {
        guard next == words.count else { throw .init(text: "unexpected '\(words[next])' after '\(name)'") }
    }
}
