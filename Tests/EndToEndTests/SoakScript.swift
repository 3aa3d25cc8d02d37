import Foundation
import TestSupport

extension SeededRandom {
    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// The input of a soak: open/close cycles (tap a cell, then Escape or a pull down), then seeded
/// random use (taps, drags, pinches, wheel, keys, resizes). At three points the screen is brought
/// back to the grid at its first size, left to settle, and a scene dump is written: the soak samples
/// the process when that file appears.
struct SoakScript {
    static let size = (width: 1280, height: 800)
    /// The keys random use presses: all but quit and screenshot (which writes files), full screen, and
    /// slow motion (ten times slower, a flight outlasts the marks' waits: CI sampled the end with one in the air).
    static let keys = ["plus", "minus", "0", "1", "Left", "Right", "Up", "Down", "Home", "End", "Return", "space",
                       "Escape", "BackSpace", "d", "question"]

    /// Random use played before the start mark at most, s.
    static let warmUpSeconds = 60.0
    /// How long a mark waits for the screen to settle at most, s.
    static let settleSeconds = 60.0

    let cycles: Int
    let randomSeconds: Double
    let seed: UInt64
    /// Where the marks go: `mark-start.json`, `mark-middle.json`, `mark-end.json`.
    let folder: String

    var text: String {
        var lines: [String] = []
        // A few cycles first, and the random use's first minute: what a first use costs is part of
        // the start, not growth (the caches a photo's opening fills; the `?` card's glyphs, library
        // code run for the first time, the decoders' own heaps). With the start taken before the
        // random use, the end was 4–8 MiB over it; taken after, the end is within 0.2 MiB of it.
        for i in 0..<4 { lines += cycle(i) }
        lines += randomUse(seconds: min(randomSeconds, Self.warmUpSeconds))
        lines += mark("start")
        for i in 0..<cycles { lines += cycle(i) }
        lines += mark("middle")
        lines += randomUse(seconds: randomSeconds)
        lines += mark("end")
        lines.append("key q")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seeded random use for about `seconds`; every call plays the same steps from the first.
    private func randomUse(seconds: Double) -> [String] {
        var random = SeededRandom(state: seed)
        var lines: [String] = [], played = 0.0
        while played < seconds {
            let (step, duration) = randomStep(&random)
            lines += step
            played += duration
        }
        return lines
    }

    /// Opens the first photo and closes it, with Escape or with a pull down, by turns.
    private func cycle(_ i: Int) -> [String] {
        let open = ["tap 90 150", "wait 650"]
        if i % 2 == 0 { return open + ["key Escape", "wait 450"] }
        return open + ["down 640 400", "move 640 700 250", "up", "wait 500"]
    }

    /// Back to the grid at the first size, on its first tab (random taps reach the tab bar after a resize:
    /// an album's grid or the Search tab is another screen to sample) and at its first density (`0`: a
    /// pinch out to 3 columns holds 11 MiB more of thumbnails), settled, then the dump that tells the soak
    /// to sample. Four Escapes: the `?` card, the menu, the details, then the photo. Settled, not waited
    /// for: beside the other tests, the thumbnails at the new size took longer than a fixed wait, and the
    /// sample held the larger ones they replace (15 MiB).
    private func mark(_ name: String) -> [String] {
        Array(repeating: ["key Escape", "wait 700"], count: 4).flatMap { $0 }
            + ["resize \(Self.size.width) \(Self.size.height)", "wait 700", "tap 200 \(Self.size.height - 20)", "wait 700",
               "key 0", "wait 700", "settle \(Int(Self.settleSeconds * 1000))", "dump \(folder)/mark-\(name).json", "wait 1500"]
    }

    /// One random use, and about how long it takes, s.
    private func randomStep(_ random: inout SeededRandom) -> ([String], Double) {
        let x = random.int(20..<(Self.size.width - 20)), y = random.int(60..<(Self.size.height - 60))
        let wait = random.int(30..<400)
        switch random.int(0..<7) {
        case 0: return (["tap \(x) \(y)", "wait \(wait)"], Double(wait + 50) / 1000)
        case 1:
            let ms = random.int(40..<400)
            let to = (random.int(0..<Self.size.width), random.int(0..<Self.size.height))
            return (["down \(x) \(y)", "move \(to.0) \(to.1) \(ms)", "up", "wait \(wait)"], Double(ms + wait) / 1000)
        case 2:
            let scale = [0.3, 0.6, 1.5, 2.5, 4][random.int(0..<5)]
            return (["pinch \(x) \(y) \(scale) 300", "wait \(wait)"], Double(300 + wait) / 1000)
        case 3:
            let notches = [-3, -1, 1, 3][random.int(0..<4)]
            return (["scroll 0 \(notches)\(random.int(0..<4) == 0 ? " ctrl" : "")", "wait \(wait)"], Double(wait) / 1000)
        case 4: return (["key \(Self.keys[random.int(0..<Self.keys.count)])", "wait \(wait)"], Double(wait) / 1000)
        case 5:
            let w = random.int(400..<1500), h = random.int(300..<1100)
            return (["resize \(w) \(h)", "wait \(wait + 200)"], Double(wait + 200) / 1000)
        default: return (["double-tap \(x) \(y)", "wait \(wait)"], Double(wait + 150) / 1000)
        }
    }
}
