import Glibc
import SystemPackage

/// What an MP4 or QuickTime clip says of when and with what it was filmed, read from its `moov` box without FFmpeg
/// (in the viewer, as a photo's EXIF is; memory-safe Swift over a few small reads): Apple's
/// `com.apple.quicktime.creationdate` (its zone included), else the movie header's creation time (UTC, on this
/// machine's clock), the camera from `com.apple.quicktime.make`/`model` or the user data's `©mak`/`©mod`, a Live
/// Photo's movie's `com.apple.quicktime.content.identifier`, and for the info panel where it was filmed
/// (`com.apple.quicktime.location.ISO6709`, or Android's `©xyz`).
enum QuickTimeMetadata {
    /// A box: its type, where its payload starts, and its end (file offsets).
    struct Box {
        let type: String
        let payload: Int
        let end: Int
    }

    /// The largest `moov` part read whole (its header, `meta` or `udta`); the sample tables are skipped, not read.
    static let maxPart = 1 << 20

    static func read(fd: Int32, fileSize: Int) -> PhotoFacts? {
        guard let words = words(fd: fd, fileSize: fileSize) else { return nil }
        let (keyed, userData) = (words.keyed, words.userData)
        var facts = PhotoFacts()
        facts.date = keyed["com.apple.quicktime.creationdate"].flatMap(CaptureDate.init(iso8601:))
            ?? words.created.map(CaptureDate.init(utcOnThisMachine:))
        let make = keyed["com.apple.quicktime.make"] ?? userData["\u{A9}mak"]
        let model = keyed["com.apple.quicktime.model"] ?? userData["\u{A9}mod"]
        facts.camera = PhotoFacts.camera(make: make, model: model)
        facts.contentIdentifier = keyed["com.apple.quicktime.content.identifier"]
        return facts == PhotoFacts() ? nil : facts
    }

    /// Where the clip was filmed, as its words say (ISO 6709, Apple's key or Android's user data).
    static func location(path: FilePath) -> PhotoDetails.Coordinates? {
        let fd = path.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let words = words(fd: fd, fileSize: Int(info.st_size)) else { return nil }
        return (words.keyed["com.apple.quicktime.location.ISO6709"] ?? words.userData["\u{A9}xyz"]).flatMap(coordinates(iso6709:))
    }

    /// ISO 6709's point, as cameras write it: "+37.3349-122.0090+010.000/" (degrees, each number signed; the height
    /// may be left out), or degrees and minutes ("+3720.09-12200.54/") or and seconds.
    static func coordinates(iso6709 text: String) -> PhotoDetails.Coordinates? {
        var numbers: [String] = []
        for character in text.prefix { $0 != "/" && $0 != "C" } {
            if character == "+" || character == "-" { numbers.append(String(character)) } else if numbers.isEmpty { return nil } else {
                numbers[numbers.count - 1].append(character)
            }
        }
        guard numbers.count >= 2, let latitude = degrees(numbers[0], degreeDigits: 2),
              let longitude = degrees(numbers[1], degreeDigits: 3), abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return PhotoDetails.Coordinates(latitude: latitude, longitude: longitude, altitude: numbers.count > 2 ? Double(numbers[2]) : nil)
    }

    /// A signed ISO 6709 angle: `degreeDigits` digits of degrees, then perhaps two of minutes and two of seconds.
    private static func degrees(_ number: String, degreeDigits: Int) -> Double? {
        guard let value = Double(number), value.isFinite else { return nil }
        let whole = number.dropFirst().prefix { $0 != "." }.count
        let magnitude = abs(value)
        let result: Double
        switch whole - degreeDigits {
        case 0: result = magnitude
        case 2: result = (magnitude / 100).rounded(.down) + magnitude.truncatingRemainder(dividingBy: 100) / 60
        case 4:
            let (d, rest) = ((magnitude / 10_000).rounded(.down), magnitude.truncatingRemainder(dividingBy: 10_000))
            result = d + (rest / 100).rounded(.down) / 60 + rest.truncatingRemainder(dividingBy: 100) / 3600
        default: return nil
        }
        return value < 0 ? -result : result
    }

    /// The `moov` box's keyed items, user data texts and movie header time.
    private static func words(fd: Int32, fileSize: Int) -> (keyed: [String: String], userData: [String: String], created: Int64?)? {
        guard let moov = boxes(fd, from: 0, to: fileSize).first(where: { $0.type == "moov" }) else { return nil }
        var keyed: [String: String] = [:], userData: [String: String] = [:]
        var created: Int64?
        for child in boxes(fd, from: moov.payload, to: moov.end) {
            switch child.type {
            case "mvhd": created = movieHeaderTime(part(fd, child))
            case "meta": keyed.merge(keyedItems(fd, child), uniquingKeysWith: { a, _ in a })
            case "udta":
                for entry in boxes(fd, from: child.payload, to: child.end) {
                    if entry.type == "meta" { keyed.merge(keyedItems(fd, entry), uniquingKeysWith: { a, _ in a }) }
                    if let text = userDataText(part(fd, entry)) { userData[entry.type] = text }
                }
            default: break
            }
        }
        return (keyed, userData, created)
    }

    /// The boxes one after another from `start` to `end` (a box of size 0 runs to `end`; a 64-bit size follows size 1).
    static func boxes(_ fd: Int32, from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var at = start
        while at + 8 <= end, found.count < 4096, let head = FileHead.read(fd: fd, at: at, length: 16), head.count >= 8 {
            let size32 = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let type = String(decoding: head[4..<8], as: UTF8.self)
            var (size, payload) = (size32, at + 8)
            if size32 == 1 {
                guard head.count == 16 else { break }
                size = head[8..<16].reduce(0) { $0 << 8 | Int($1) }
                payload = at + 16
            } else if size32 == 0 {
                size = end - at
            }
            guard size >= payload - at, size <= end - at else { break }
            found.append(Box(type: type, payload: payload, end: at + size))
            at += size
        }
        return found
    }

    /// A small box's payload (nil for one too large to be metadata).
    private static func part(_ fd: Int32, _ box: Box) -> [UInt8]? {
        guard box.end - box.payload <= maxPart else { return nil }
        return FileHead.read(fd: fd, at: box.payload, length: box.end - box.payload)
    }

    private static func number(_ b: ArraySlice<UInt8>) -> Int { b.reduce(0) { $0 << 8 | Int($1) } }

    /// The movie header's creation time (seconds since 1904, UTC) as seconds since 1970; nil when unset.
    private static func movieHeaderTime(_ payload: [UInt8]?) -> Int64? {
        guard let p = payload, p.count >= 12 else { return nil }
        let seconds = p[0] == 1 ? number(p[4..<12]) : number(p[4..<8])
        let since1970 = Int64(seconds) - 2_082_844_800
        return seconds > 0 && since1970 > 0 ? since1970 : nil
    }

    /// A `meta` box's keyed items (`keys` names them, `ilst` holds them as UTF-8 `data`).
    private static func keyedItems(_ fd: Int32, _ meta: Box) -> [String: String] {
        // QuickTime's `meta` has no version and flags; ISO's (in `udta`) has them: its children start 4 bytes in.
        let skip = FileHead.read(fd: fd, at: meta.payload + 4, length: 4).map { String(decoding: $0, as: UTF8.self) } == "hdlr" ? 0 : 4
        let children = boxes(fd, from: meta.payload + skip, to: meta.end)
        guard let keysBox = children.first(where: { $0.type == "keys" }), let keys = part(fd, keysBox),
              let listBox = children.first(where: { $0.type == "ilst" }) else { return [:] }
        var names: [String] = []
        var at = 8   // version, flags, count
        while at + 8 <= keys.count {
            let size = number(keys[at..<(at + 4)])
            guard size >= 8, at + size <= keys.count else { break }
            names.append(String(decoding: keys[(at + 8)..<(at + size)], as: UTF8.self))
            at += size
        }
        var items: [String: String] = [:]
        for item in boxes(fd, from: listBox.payload, to: listBox.end) {
            let index = item.type.utf8.reduce(0) { $0 << 8 | Int($1) }
            guard (1...names.count).contains(index), let data = part(fd, item), data.count > 16,
                  String(decoding: data[4..<8], as: UTF8.self) == "data", number(data[8..<12]) == 1 else { continue }
            let size = min(number(data[0..<4]), data.count)
            guard size > 16 else { continue }
            items[names[index - 1]] = String(decoding: data[16..<size], as: UTF8.self)
        }
        return items
    }

    /// A QuickTime user data text (`©day`, `©mak`, `©mod`): a 16-bit length and language, then the text.
    private static func userDataText(_ payload: [UInt8]?) -> String? {
        guard let p = payload, p.count > 4 else { return nil }
        let length = number(p[0..<2])
        guard length > 0, 4 + length <= p.count else { return nil }
        return String(decoding: p[4..<(4 + length)], as: UTF8.self)
    }
}

extension CaptureDate {
    /// ISO 8601 as phones write it: "2023-06-01T12:34:56+0200" (or "+02:00", "Z", fractions of a second before it).
    init?(iso8601 text: String) {
        guard text.utf8.count >= 19 else { return nil }
        var zone = String(text.dropFirst(19))
        if zone.first == "." { zone = String(zone.drop { $0 == "." || $0.isNumber }) }
        if zone == "Z" { zone = "+00:00" }
        if zone.count == 5, !zone.contains(":") { zone.insert(":", at: zone.index(zone.startIndex, offsetBy: 3)) }
        self.init(exif: String(text.prefix(19)), offset: zone.isEmpty ? nil : zone)
    }

    /// A UTC time (seconds since 1970) as this machine's wall clock shows it, with that clock's offset.
    init(utcOnThisMachine seconds: Int64) {
        var time = time_t(seconds), local = tm()
        let offset = localtime_r(&time, &local) != nil ? Int(local.tm_gmtoff) : 0
        self.init(wallClock: seconds + Int64(offset), utcOffset: offset)
    }
}
