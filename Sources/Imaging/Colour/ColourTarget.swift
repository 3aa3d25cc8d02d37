import CLCMS2
import Foundation
import Pixels
import Threads

/// The colour space pictures are shown in: the display's profile (the X root window's `_ICC_PROFILE`
/// where one is set), sRGB otherwise. Each decoded picture is converted into it once, with lcms2, on
/// the thread that decoded it: never per frame. Pictures whose description comes out the same as the
/// target (an sRGB-tagged photo on an sRGB display) are left as they are.
// Unchecked: it holds lcms2's profile (a C handle), used only while the transforms' lock is held.
public final class ColourTarget: @unchecked Sendable {
    /// Where screenshots, recordings and the thumbnail cache's files are: sRGB, as their readers expect.
    public static let sRGB = ColourTarget(profile: ColourProfile.sRGB(), isSRGB: true)

    /// The profile's description, for people.
    public let name: String
    public let isSRGB: Bool
    /// The display profile's bytes as given (empty for sRGB): what a decoder process is sent.
    public private(set) var iccProfile: [UInt8] = []
    private let profile: ColourProfile
    /// The transform for each description (and alpha), or nil where it changes nothing; made one at a time under
    /// the lock (lcms2 reads the profiles' tags as it goes).
    private let transforms = Locked<[Key: Transform?]>([:])
    /// Profiles embedded in files are many; keep the transforms of the latest few.
    static let cacheLimit = 32

    private struct Key: Hashable {
        let from: ColourDescription
        let premultiplied: Bool
        let toSRGB: Bool
    }

    private init(profile: ColourProfile, isSRGB: Bool) {
        self.profile = profile
        self.isSRGB = isSRGB
        name = isSRGB ? "sRGB" : profile.name
    }

    /// The display's profile; nil when lcms2 can't read it as an RGB profile.
    public convenience init?(iccProfile bytes: [UInt8]) {
        guard let profile = ColourProfile(icc: bytes) else { return nil }
        self.init(profile: profile, isSRGB: false)
        iccProfile = bytes
        // A display profiled as sRGB is taken as sRGB: nothing to convert, ever.
        if transform(for: Key(from: .sRGB, premultiplied: false, toSRGB: false)) == nil {
            self.isSRGBLike = true
        }
    }

    /// Whether the target converts sRGB to itself (an sRGB display profile): sRGB pictures need nothing.
    public private(set) var isSRGBLike = false

    /// Converts `image`'s pixels in place, from what `description` says they mean to this target. The
    /// image must not be shared yet (a decoder's fresh output).
    public func convert(_ image: PixelImage, from description: ColourDescription) {
        guard !(description == .sRGB && (isSRGB || isSRGBLike)) else { return }
        apply(transform(for: Key(from: description, premultiplied: !image.isOpaque, toSRGB: false)), to: image)
    }

    /// Converts a frame drawn in this target's colours to sRGB, in place (a screenshot, a recording's frame).
    public func convertToSRGB(_ image: PixelImage) {
        guard !isSRGB && !isSRGBLike else { return }
        apply(transform(for: Key(from: .sRGB, premultiplied: !image.isOpaque, toSRGB: true)), to: image)
    }

    private func apply(_ transform: Transform?, to image: PixelImage) {
        guard let transform else { return }
        cmsDoTransformLineStride(transform.handle, image.bytes, image.bytes, UInt32(image.width), UInt32(image.height),
                                 UInt32(image.stride), UInt32(image.stride), 0, 0)
    }

    private func transform(for key: Key) -> Transform? {
        transforms.withLock { transforms in
            if let known = transforms[key] { return known }
            let made = makeTransform(key)
            if transforms.count >= Self.cacheLimit { transforms.removeAll() }
            transforms[key] = made
            return made
        }
    }

    /// lcms2's transform for `key`; nil when the source can't be read (taken as sRGB) or the transform
    /// changes no colour by more than a level (the same space under another name).
    private func makeTransform(_ key: Key) -> Transform? {
        let format = key.premultiplied ? photozoom_lcms_bgra8_premultiplied() : photozoom_lcms_bgra8()
        let sRGB = ColourProfile.sRGB()
        let source: ColourProfile?
        switch key.from {
        case _ where key.toSRGB: source = profile
        case .sRGB: source = sRGB
        case .icc(let bytes): source = ColourProfile(icc: bytes)
        case .cicp(let primaries, let transfer): source = ColourProfile(cicpPrimaries: primaries, transfer: transfer)
        case .gammaAndPrimaries(let gamma, let primaries): source = ColourProfile(gamma: gamma, primaries: primaries)
        }
        guard let source else { return nil }
        let destination = key.toSRGB ? sRGB : profile
        // No cache of the last colour: one transform serves every decoding thread at once.
        let flags = UInt32(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE | cmsFLAGS_BLACKPOINTCOMPENSATION)
        guard let handle = cmsCreateTransform(source.handle, format, destination.handle, format, UInt32(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        let transform = Transform(handle)
        return transform.isIdentity ? nil : transform
    }

    // Unchecked: lcms2's transform (a C handle), which cmsDoTransform may use from any thread at once.
    private final class Transform: @unchecked Sendable {
        let handle: cmsHTRANSFORM
        init(_ handle: cmsHTRANSFORM) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }

        /// No colour of a 9×9×9 grid moves by more than one level.
        var isIdentity: Bool {
            let steps = stride(from: 0, through: 256, by: 32).map { UInt8(min($0, 255)) }
            var pixels: [UInt8] = []
            for r in steps { for g in steps { for b in steps { pixels += [b, g, r, 255] } } }
            var out = [UInt8](repeating: 0, count: pixels.count)
            cmsDoTransform(handle, pixels, &out, UInt32(pixels.count / 4))
            return zip(pixels, out).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
    }
}

/// lcms2's process-wide settings.
enum ColourManagement {
    /// lcms2 prints nothing by default, but a library may have set a handler: a profile it can't read
    /// is this viewer's to report (it is taken as sRGB), not lcms2's.
    static func silenceLibrary() { _ = once }
    private static let once: Void = cmsSetLogErrorHandler(nil)
}
