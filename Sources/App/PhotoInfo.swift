import Foundation
import Imaging
import Library
import SystemPackage

/// What the info panel says of a photo, in words: a title (when it was taken, else when its file was last
/// written) and a row for each detail its file gives (camera, lens, exposure, size, format, place, file).
enum PhotoInfo {
    typealias Row = (label: String, value: String)

    /// `clip`: what a clip's decode said of it (its length, codec and rate), when it is one.
    static func describe(_ photo: Photo, clip: ClipFacts? = nil, locale: Locale = .environmentDates) -> (title: String, rows: [Row]) {
        describe(PhotoDetails.read(path: photo.file), of: photo, clip: clip, locale: locale)
    }

    static func describe(_ details: PhotoDetails, of photo: Photo, clip: ClipFacts? = nil,
                         locale: Locale = .environmentDates) -> (title: String, rows: [Row]) {
        var details = details
        if let clip, details.facts.pixelSize == nil { details.facts.pixelSize = PixelSize(width: clip.width, height: clip.height) }
        let facts = details.facts
        var rows: [Row] = []
        if let clip { rows.append(("Length", length(clip))) }
        if let camera = facts.camera { rows.append(("Camera", camera)) }
        if let lens = details.lens { rows.append(("Lens", lens)) }
        let exposure = [details.fNumber.map { "ƒ/\(decimal($0, places: 1))" },
                        details.exposureTime.map(shutter),
                        details.iso.map { "ISO \($0)" },
                        details.focalLength.map { focal in
                            "\(decimal(focal, places: 1)) mm" + (details.focalLength35.map { Double($0) != focal.rounded() ? " (\($0) mm in 35 mm)" : "" } ?? "")
                        }].compactMap { $0 }
        if !exposure.isEmpty { rows.append(("Exposure", exposure.joined(separator: " · "))) }
        if let size = facts.pixelSize {
            let shown = facts.orientation?.swapsAxes == true ? (size.height, size.width) : (size.width, size.height)
            let megapixels = Double(size.width * size.height) / 1_000_000
            rows.append(("Size", "\(shown.0) × \(shown.1) · \(decimal(megapixels, places: 1)) MP"
                         + (details.fileSize.map { " · " + bytes($0) } ?? "")))
        } else if let fileSize = details.fileSize {
            rows.append(("Size", bytes(fileSize)))
        }
        let format = [details.format, clip.map { codecName($0.codec) + ($0.hasSound ? " with sound" : ", silent") }, details.colourProfile]
            .compactMap { $0 }
        if !format.isEmpty { rows.append(("Format", format.joined(separator: " · "))) }
        if let place = details.location { rows.append(("Location", coordinates(place))) }
        rows.append(("File", photo.name))
        rows.append(("Folder", String(decoding: photo.file.removingLastComponent()).escapingControlCharacters))
        return (title(facts.date.map { ($0.wallClock, true) } ?? photo.date.map { ($0.wallClock, $0.isCaptureTime) }, name: photo.name, locale: locale),
                rows)
    }

    /// "Tuesday 3 March 2024, 14:05" in the locale's words (a camera's wall clock, as it was set).
    private static func title(_ date: (wallClock: Int64, isCaptureTime: Bool)?, name: String, locale: Locale) -> String {
        guard let date else { return name }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.setLocalizedDateFormatFromTemplate("EEEEdMMMMyHHmm")
        let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(date.wallClock)))
        return date.isCaptureTime ? text : "Saved " + text
    }

    /// "0:14 · 30 fps" (the rate to two places when it is not whole: 29.97).
    static func length(_ clip: ClipFacts) -> String {
        guard clip.frameRate > 0 else { return clip.durationText }
        let whole = abs(clip.frameRate - clip.frameRate.rounded()) < 0.005
        return clip.durationText + " · " + (whole ? "\(Int(clip.frameRate.rounded()))" : decimal(clip.frameRate, places: 2)) + " fps"
    }

    /// A codec as people name it ("H.264"), from FFmpeg's name ("h264").
    static func codecName(_ ffmpeg: String) -> String {
        ["h264": "H.264", "hevc": "HEVC", "vp8": "VP8", "vp9": "VP9", "av1": "AV1", "mpeg4": "MPEG-4", "prores": "ProRes"][ffmpeg]
            ?? ffmpeg.uppercased()
    }

    /// "1/250 s" under a second (as cameras show it), else "2 s", "1.3 s".
    static func shutter(_ seconds: Double) -> String {
        seconds < 0.75 ? "1/\(Int((1 / seconds).rounded())) s" : "\(decimal(seconds, places: 1)) s"
    }

    /// "48.85840° N, 2.29450° E", and the altitude when known.
    static func coordinates(_ place: PhotoDetails.Coordinates) -> String {
        let latitude = "\(decimal(abs(place.latitude), places: 5, keepZeros: true))° \(place.latitude < 0 ? "S" : "N")"
        let longitude = "\(decimal(abs(place.longitude), places: 5, keepZeros: true))° \(place.longitude < 0 ? "W" : "E")"
        return "\(latitude), \(longitude)" + (place.altitude.map { " · \(Int($0.rounded())) m" } ?? "")
    }

    /// "7.2 MB", "512 KB", "980 bytes" (powers of 1000, as file managers say them).
    static func bytes(_ count: Int64) -> String {
        switch count {
        case ..<1000: "\(count) bytes"
        case ..<1_000_000: "\(Int((Double(count) / 1000).rounded())) KB"
        case ..<1_000_000_000: "\(decimal(Double(count) / 1_000_000, places: 1)) MB"
        default: "\(decimal(Double(count) / 1_000_000_000, places: 2)) GB"
        }
    }

    /// `value` with at most `places` decimals ("2.8", "4", "12.2"; all of them with `keepZeros`).
    private static func decimal(_ value: Double, places: Int, keepZeros: Bool = false) -> String {
        let text = String(format: "%.\(places)f", value)
        guard !keepZeros, text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
