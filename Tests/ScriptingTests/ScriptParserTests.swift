import Foundation
import Testing
@testable import Scripting

@Suite struct ScriptParserTests {
    @Test func parsesEveryCommand() throws {
        let script = """
            # open the third photo
            wait 100
            tap 10 20          # press and release
            double-tap 30.5 40
            down 1 2
            move 3 4
            move 5 6 250
            up

            scroll 0 -2.5
            scroll 0 1 ctrl
            key Escape
            pinch 400 300 2.5
            pinch 400 300 0.5 500
            twist 400 300 -95 200
            touchpad-pinch 200 100 1.5
            resize 800 600
            settle
            settle 2500
            screenshot out/a.png
            dump scene.json
            """
        let commands = try ScriptParser.parse(script).map(\.command)
        #expect(commands == [
            .wait(ms: 100), .tap(x: 10, y: 20), .doubleTap(x: 30.5, y: 40), .down(x: 1, y: 2),
            .move(x: 3, y: 4, ms: nil), .move(x: 5, y: 6, ms: 250), .up, .scroll(dx: 0, dy: -2.5, unit: .smooth, control: false),
            .scroll(dx: 0, dy: 1, unit: .notches, control: true), .key("Escape"), .pinch(x: 400, y: 300, scale: 2.5, ms: nil), .pinch(x: 400, y: 300, scale: 0.5, ms: 500),
            .twist(x: 400, y: 300, degrees: -95, ms: 200),
            .touchpadPinch(x: 200, y: 100, scale: 1.5, ms: nil),
            .resize(width: 800, height: 600), .settle(maxMs: 10_000), .settle(maxMs: 2500), .screenshot("out/a.png"), .dump("scene.json"),
        ])
        #expect(try ScriptParser.parse(script).first?.line == 2)
    }

    @Test(arguments: [
        ("wait 10\ntapp 1 2", 2, "unknown command 'tapp'", "tapp 1 2"),
        ("tap 1", 1, "'tap' needs Y", "tap 1"),
        ("\n\nmove 1 two", 3, "Y must be a number, not 'two'", "move 1 two"),
        ("wait -5", 1, "MS must be at least 0.0, not -5", "wait -5"),
        ("up now", 1, "unexpected 'now' after 'up'", "up now"),
        ("scroll 0 1 shift", 1, "expected 'ctrl' or nothing, not 'shift'", "scroll 0 1 shift"),
        ("resize 0 600", 1, "W must be a whole number of pixels from 1 to 16384, not '0'", "resize 0 600"),
        ("key", 1, "'key' needs NAME", "key"),
        ("settle soon", 1, "MS must be a number, not 'soon'", "settle soon"),
        ("  tap 1 nan  # oops", 1, "Y must be a number, not 'nan'", "tap 1 nan  # oops"),
    ])
    func malformedLinesNameTheLineAndTheText(script: String, line: Int, reason: String, text: String) {
        #expect(throws: ScriptError(line: line, text: text, reason: reason)) { try ScriptParser.parse(script) }
    }

    @Test func errorMessageIsOneLine() {
        let error = ScriptError(line: 7, text: "tapp 1 2", reason: "unknown command 'tapp'")
        #expect(error.description == "script line 7: unknown command 'tapp': tapp 1 2")
    }
}

/// The example scripts (also the fuzzer's seeds) parse and lay out.
@Suite struct ScriptFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func theExampleScriptsParseAndLayOut() throws {
        let scripts = try FileManager.default.contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
        #expect(scripts.count >= 3)
        for script in scripts {
            let commands = try ScriptParser.parse(String(contentsOf: script, encoding: .utf8))
            #expect(ScriptTimeline(commands.map(\.command), frameInterval: 1.0 / 60).duration > 0, "\(script.lastPathComponent)")
        }
    }
}
