import Pixels
import SystemPackage

/// One row of the format table (`FormatTable.swift`): what the viewer needs to know of a format to
/// list, recognise and decode its files. A format is told by its content, never by its extension;
/// the extensions only let a folder's listing take a file without reading it.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// What people call it ("JPEG", "HEIC").
    public let name: String
    /// The library that decodes it ("libjpeg-turbo").
    public let library: String
    /// Its MIME types, the registered one first (the `.desktop` file's MimeType list is made of these).
    public let mimeTypes: [String]
    /// File name extensions, lower case, without the dot.
    public let extensions: [String]
    public let capabilities: FormatCapabilities
    /// Its library is opened when a file of it is first met (`LibrariesAhead`), not when the program starts;
    /// a decoder process that has not opened it cannot decode the format.
    public let opensLibraryOnDemand: Bool
    /// Whether the first bytes of a file (at least `ImageFormat.sniffLength`, or the whole file if
    /// shorter) are this format's.
    let matches: @Sendable (ArraySlice<UInt8>) -> Bool
    let decode: @Sendable (DecodeRequest) throws(ImageDecodeError) -> DecoderOutput
    /// How its files play; nil for a format that never moves.
    let animation: AnimationSupport?

    init(name: String, library: String, mimeTypes: [String], extensions: [String], capabilities: FormatCapabilities,
         opensLibraryOnDemand: Bool = false, matches: @escaping @Sendable (ArraySlice<UInt8>) -> Bool,
         decode: @escaping @Sendable (DecodeRequest) throws(ImageDecodeError) -> DecoderOutput,
         animation: AnimationSupport? = nil) {
        self.name = name
        self.library = library
        self.mimeTypes = mimeTypes
        self.extensions = extensions
        self.capabilities = capabilities
        self.opensLibraryOnDemand = opensLibraryOnDemand
        self.matches = matches
        self.decode = decode
        self.animation = animation
    }

    public var description: String { name }
    public static func == (a: ImageFormat, b: ImageFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// How many leading bytes sniffing looks at: enough for a TIFF's first directory, an ISO media
    /// file's brands and an SVG's XML prologue.
    public static let sniffLength = 4096

    /// The format of a file that starts with `bytes`, by the first row that matches; nil for none.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = ArraySlice(bytes.prefix(ImageFormat.sniffLength))
        guard let row = ImageFormat.all.first(where: { $0.matches(head) }) else { return nil }
        self = row
    }

    /// The format of the file at `path`, by its first bytes (read without waiting on a pipe); nil for none.
    public static func sniff(file path: FilePath) -> ImageFormat? {
        FileHead.read(path, length: sniffLength).flatMap { ImageFormat(sniffing: $0) }
    }

    /// Every extension of every format (a folder's listing takes such files as photos).
    public static let allExtensions: Set<String> = Set(all.flatMap(\.extensions))

    /// The format a file named `name` is named as ("IMG_0001.HEIC": HEIC), by its extension; nil for none of them.
    public static func named(_ name: String) -> ImageFormat? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let named = name[name.index(after: dot)...].lowercased()
        return all.first { $0.extensions.contains(named) }
    }

    /// The extensions of the clips' rows.
    static let clipExtensions: Set<String> = Set(all.filter { $0.capabilities.contains(.clip) }.flatMap(\.extensions))

    /// Whether a file named `name` is named as a clip ("IMG_0001.MOV").
    public static func isClipName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return clipExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether the file at `path` is a clip, by its content, asked only of a file named as one (a cheap test where
    /// every other file must not pay for a read).
    public static func mayBeClip(_ path: FilePath) -> Bool {
        guard isClipName(path.lastComponent?.string ?? "") else { return false }
        return sniff(file: path)?.capabilities.contains(.clip) ?? false
    }

    /// The MIME types an application is looked for under, for a file of this format named with `extension`,
    /// the most particular first: a camera RAW by its own type (`image/x-canon-cr2`, whose rows' types and
    /// extensions go in step), then shared-mime-info's parents (`image/x-dcraw`, `image/tiff`); any other
    /// format, its registered type.
    public func openWithTypes(extension named: String?) -> [String] {
        guard self == .raw else { return Array(mimeTypes.prefix(1)) }
        let own = named.flatMap { extensions.firstIndex(of: $0.lowercased()) }.map { mimeTypes[$0] }
        return (own.map { [$0] } ?? []) + ["image/x-dcraw", "image/tiff"]
    }

    /// Every MIME type of every format, in the table's order.
    public static var allMimeTypes: [String] { all.flatMap(\.mimeTypes) }

    /// Every format and its extensions, for the manual: "JPEG (.jpg, .jpeg …), PNG (.png), …".
    public static var summary: String {
        all.map { "\($0.name) (\($0.extensions.map { "." + $0 }.joined(separator: ", ")))" }.joined(separator: ", ")
    }

    /// The formats' names as a sentence's list: "JPEG, PNG, … or camera RAW".
    public static var namesInWords: String {
        let names = all.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

/// What a format's decoder can do besides giving one still picture at full size.
public struct FormatCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Decodes straight to a smaller size when a smaller picture will do (JPEG's DCT scaling).
    public static let scaledDecode = FormatCapabilities(rawValue: 1 << 0)
    /// A file may hold frames that play.
    public static let animation = FormatCapabilities(rawValue: 1 << 1)
    /// A file may carry a small picture of itself, shown in the grid before (or instead of) a decode.
    public static let embeddedThumbnail = FormatCapabilities(rawValue: 1 << 2)
    /// Its colour description (an ICC profile, or primaries and a transfer curve) is honoured.
    public static let colourDescription = FormatCapabilities(rawValue: 1 << 3)
    /// Drawn from shapes: rendered at the size it is shown, sharp at any zoom.
    public static let vector = FormatCapabilities(rawValue: 1 << 4)
    /// A clip: moving pictures (and sound) shown by their first picture, read where the file lies (`DecodeRequest.file`).
    public static let clip = FormatCapabilities(rawValue: 1 << 5)

    /// For people: the capabilities in words.
    public var words: [String] {
        [(Self.scaledDecode, "decoded at the size shown"), (.animation, "animation"), (.embeddedThumbnail, "embedded thumbnail"),
         (.colourDescription, "colour profile"), (.vector, "vector"), (.clip, "clip")].filter { contains($0.0) }.map(\.1)
    }
}

/// What an animated format's row knows of playing its files.
struct AnimationSupport: Sendable {
    /// Opens a file's frames.
    let open: @Sendable ([UInt8]) throws(ImageDecodeError) -> any AnimationSource
    /// Whether a file starting with these bytes holds more than one frame (false when they do not
    /// say): the grid's badge, for a photo whose thumbnail comes from the cache.
    let moves: @Sendable (ArraySlice<UInt8>) -> Bool
}

/// What a decoder is asked for.
struct DecodeRequest {
    /// The file's bytes; for a clip read from its descriptor, only its first ones (`ImageFormat.sniffLength`).
    let data: [UInt8]
    /// The upright size, px, the picture must still cover; nil for the full picture.
    let atLeast: (width: Int, height: Int)?
    /// A clip's descriptor, read where it lies; nil: `data` is the whole file.
    var file: Int32? = nil
}

/// What a decoder gives: the upright picture (a reduced decode when a smaller one was asked for and
/// the format allows it), the full picture's upright size, its colour description, and what was
/// wrong with a file that still gave a picture.
struct DecoderOutput {
    var image: PixelImage
    var fullSize: (width: Int, height: Int)
    var colour: ColourDescription = .sRGB
    var problem: String?
    /// The file holds more than one frame to play (the picture is its first).
    var isAnimated = false
    /// A clip's facts (the picture is its poster); nil for a photo.
    var clip: ClipFacts? = nil
}
