import Foundation
import Imaging

/// A Live Photo as an iPhone makes it, paired by Apple's ContentIdentifier: the still's EXIF carries an Apple maker's
/// note with the identifier (tag 0x0011, as exiftool reads it back), the movie the same identifier as its QuickTime key
/// `com.apple.quicktime.content.identifier` (written by ffmpeg).
public enum AppleLivePhoto {
    /// Writes the still (the quadrants) as `still` and the numbered clip as `movie` in `folder` (either may be left out),
    /// both with `identifier`.
    public static func make(still: String?, movie: String?, identifier: String, in folder: TemporaryFolder) throws {
        let jpeg = JPEGEncoder.encode(TestClips.quadrants, quality: 90)!
        // The Exif segment right after the start of image.
        if let still { try folder.write(still, [0xFF, 0xD8] + exifSegment(identifier: identifier) + Array(jpeg.dropFirst(2))) }
        guard let movie else { return }
        try TestClips.make([.numbered], in: folder)
        let run = try DesktopTools.run("ffmpeg", ["-loglevel", "error", "-y", "-i", folder.path + "/numbered.mp4", "-c", "copy",
                                                  "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
                                                  "-movflags", "use_metadata_tags", folder.path + "/" + movie])
        try FileManager.default.removeItem(atPath: folder.path + "/numbered.mp4")
        guard run.status == 0 else { throw TestClips.ToolFailed(name: "ffmpeg", arguments: ["-metadata", identifier]) }
    }

    /// APP1 "Exif": a big-endian TIFF whose IFD0 says Make "Apple" and points to an EXIF IFD holding the maker's note.
    static func exifSegment(identifier: String) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(type) + u32(count) + u32(value) }
        let id = Array(identifier.utf8) + [0]
        // The note: its header, one entry (its offset counts from the note's start), no next directory, the text.
        let note = Array("Apple iOS\0".utf8) + u16(1) + Array("MM".utf8) + u16(1) + entry(0x0011, 2, id.count, 32) + u32(0) + id
        let make = Array("Apple\0".utf8)
        // IFD0 at 8 (two entries: 30 bytes), Make's text at 38, the EXIF IFD at 44 (one entry: 18 bytes), the note at 62.
        let tiff = Array("MM".utf8) + u16(42) + u32(8)
            + u16(2) + entry(0x010F, 2, make.count, 38) + entry(0x8769, 4, 1, 44) + u32(0) + make
            + u16(1) + entry(0x927C, 7, note.count, 62) + u32(0) + note
        let payload = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xE1] + u16(payload.count + 2) + payload
    }
}
