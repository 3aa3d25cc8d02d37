/// The formats the viewer decodes, one row each (a clip's row: its poster and its facts), in the order sniffing tries them (a more particular
/// signature before a more general one: APNG before PNG, camera RAW before TIFF). Adding a format
/// is a decoder file (and its C shim) and a row here; the folder listing, the sniffing, the error
/// for an unknown file, the `.desktop` file's MimeType and docs/features.md's format list follow this table
/// (tests hold the last two to it).
extension ImageFormat {
    public static let all: [ImageFormat] = [jpeg, apng, png, webp, gif, avif, heic, jxl, raw, tiff, svg, mp4, quickTime, webm, matroska]

    public static let jpeg = ImageFormat(
        name: "JPEG", library: "libjpeg-turbo", mimeTypes: ["image/jpeg"], extensions: ["jpg", "jpeg", "jpe", "jfif"],
        capabilities: [.scaledDecode, .embeddedThumbnail, .colourDescription],
        matches: { $0.starts(with: [0xFF, 0xD8, 0xFF]) }, decode: JPEGDecoder.decode)

    public static let png = ImageFormat(
        name: "PNG", library: "libpng", mimeTypes: ["image/png"], extensions: ["png"],
        capabilities: [.colourDescription],
        matches: PNGDecoder.matches, decode: PNGDecoder.decode)

    public static let webp = ImageFormat(
        name: "WebP", library: "libwebp", mimeTypes: ["image/webp"], extensions: ["webp"],
        capabilities: [.scaledDecode, .animation, .colourDescription],
        matches: WebPDecoder.matches, decode: WebPDecoder.decode,
        animation: AnimationSupport(open: WebPDecoder.animation, moves: WebPDecoder.moves))

    public static let avif = ImageFormat(
        name: "AVIF", library: "libheif", mimeTypes: ["image/avif"], extensions: ["avif"],
        capabilities: [.embeddedThumbnail, .colourDescription],
        opensLibraryOnDemand: true,
        matches: HEIFDecoder.matchesAVIF, decode: HEIFDecoder.decode)

    public static let heic = ImageFormat(
        name: "HEIC", library: "libheif", mimeTypes: ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"],
        extensions: ["heic", "heif", "hif"],
        capabilities: [.embeddedThumbnail, .colourDescription],
        opensLibraryOnDemand: true,
        matches: HEIFDecoder.matchesHEIC, decode: HEIFDecoder.decode)

    public static let tiff = ImageFormat(
        name: "TIFF", library: "libtiff", mimeTypes: ["image/tiff"], extensions: ["tif", "tiff"],
        capabilities: [.colourDescription],
        matches: TIFFDecoder.matches, decode: TIFFDecoder.decode)

    public static let jxl = ImageFormat(
        name: "JPEG XL", library: "libjxl", mimeTypes: ["image/jxl"], extensions: ["jxl"],
        capabilities: [.colourDescription],
        opensLibraryOnDemand: true,
        matches: JXLDecoder.matches, decode: JXLDecoder.decode)

    public static let svg = ImageFormat(
        name: "SVG", library: "librsvg", mimeTypes: ["image/svg+xml"], extensions: ["svg"],
        capabilities: [.scaledDecode, .vector],
        opensLibraryOnDemand: true,
        matches: SVGDecoder.matches, decode: SVGDecoder.decode)

    public static let raw = ImageFormat(
        name: "camera RAW", library: "libraw",
        mimeTypes: ["image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-nikon-nef", "image/x-nikon-nrw",
                    "image/x-sony-arw", "image/x-fuji-raf", "image/x-olympus-orf", "image/x-panasonic-rw2",
                    "image/x-pentax-pef", "image/x-samsung-srw"],
        extensions: ["dng", "cr2", "cr3", "nef", "nrw", "arw", "raf", "orf", "rw2", "pef", "srw"],
        capabilities: [.scaledDecode, .embeddedThumbnail],
        matches: RAWDecoder.matches, decode: RAWDecoder.decode)

    public static let gif = ImageFormat(
        name: "GIF", library: "giflib", mimeTypes: ["image/gif"], extensions: ["gif"],
        capabilities: [.animation],
        matches: GIFDecoder.matches, decode: GIFDecoder.decode,
        animation: AnimationSupport(open: GIFDecoder.animation, moves: GIFDecoder.moves))

    public static let apng = ImageFormat(
        name: "APNG", library: "libpng", mimeTypes: ["image/apng"], extensions: ["apng"],
        capabilities: [.animation, .colourDescription],
        matches: APNGDecoder.matches, decode: APNGDecoder.decode,
        animation: AnimationSupport(open: APNGDecoder.animation, moves: APNGDecoder.moves))

    public static let mp4 = ImageFormat(
        name: "MP4", library: "FFmpeg", mimeTypes: ["video/mp4", "video/x-m4v", "video/3gpp"], extensions: ["mp4", "m4v", "3gp"],
        capabilities: [.clip, .scaledDecode], opensLibraryOnDemand: true,
        matches: ClipDecoder.matchesMP4, decode: ClipDecoder.decoder(for: "MP4"))

    public static let quickTime = ImageFormat(
        name: "QuickTime", library: "FFmpeg", mimeTypes: ["video/quicktime"], extensions: ["mov", "qt"],
        capabilities: [.clip, .scaledDecode], opensLibraryOnDemand: true,
        matches: ClipDecoder.matchesQuickTime, decode: ClipDecoder.decoder(for: "QuickTime"))

    public static let webm = ImageFormat(
        name: "WebM", library: "FFmpeg", mimeTypes: ["video/webm"], extensions: ["webm"],
        capabilities: [.clip, .scaledDecode], opensLibraryOnDemand: true,
        matches: ClipDecoder.matchesWebM, decode: ClipDecoder.decoder(for: "WebM"))

    public static let matroska = ImageFormat(
        name: "Matroska", library: "FFmpeg", mimeTypes: ["video/x-matroska"], extensions: ["mkv"],
        capabilities: [.clip, .scaledDecode], opensLibraryOnDemand: true,
        matches: ClipDecoder.matchesMatroska, decode: ClipDecoder.decoder(for: "Matroska"))
}
