import CLCMS2
import Foundation

/// An RGB colour profile opened by lcms2: one a file embeds, one made from code points or PNG
/// chunks, or the display's. lcms2 reads a profile's tags lazily, so a profile is used by one thread
/// at a time (`ColourTarget` makes its transforms under a lock).
// Unchecked: lcms2's profile (a C handle), used by one thread at a time.
final class ColourProfile: @unchecked Sendable {
    let handle: cmsHPROFILE

    private init(_ handle: cmsHPROFILE) { self.handle = handle }
    deinit { cmsCloseProfile(handle) }

    /// sRGB IEC 61966-2.1, as lcms2 builds it.
    static func sRGB() -> ColourProfile { ColourProfile(cmsCreate_sRGBProfile()) }

    /// An embedded or installed ICC profile; nil when lcms2 can't read it or it does not describe RGB
    /// (a greyscale or CMYK profile says nothing of the RGB pixels the decoders give).
    convenience init?(icc bytes: [UInt8]) {
        ColourManagement.silenceLibrary()
        guard !bytes.isEmpty, let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        guard cmsGetColorSpace(handle) == cmsSigRgbData else {
            cmsCloseProfile(handle)
            return nil
        }
        self.init(handle)
    }

    /// A profile from ITU-T H.273 code points (HEIF/AVIF nclx, JPEG XL, PNG cICP): the primaries and
    /// white, and the transfer curve. Unknown code points fall back to sRGB's.
    convenience init?(cicpPrimaries primaries: Int, transfer: Int) {
        self.init(primaries: Chromaticities(cicp: primaries) ?? .sRGB, curve: ToneCurves.curve(cicp: transfer))
    }

    /// A PNG's `gAMA` (the encoding exponent) and `cHRM`; what is missing is sRGB's.
    convenience init?(gamma: Double?, primaries: Chromaticities?) {
        let curve = gamma.flatMap { $0 > 0 ? ToneCurves.power(1 / $0) : nil } ?? ToneCurves.sRGB()
        self.init(primaries: primaries ?? .sRGB, curve: curve)
    }

    convenience init?(primaries p: Chromaticities, curve: OpaquePointer?) {
        ColourManagement.silenceLibrary()
        guard let curve else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: p.white.x, y: p.white.y, Y: 1)
        var colorants = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: p.red.x, y: p.red.y, Y: 1),
                                        Green: cmsCIExyY(x: p.green.x, y: p.green.y, Y: 1),
                                        Blue: cmsCIExyY(x: p.blue.x, y: p.blue.y, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let handle = cmsCreateRGBProfile(&white, &colorants, &curves) else { return nil }
        self.init(handle)
    }

    /// The profile's description ("Adobe RGB (1998)"), for people.
    var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return count > 0 && !text.isEmpty ? text : "an unnamed profile"
    }
}

/// The transfer curves code points and PNG chunks name, as lcms2 tone curves (each freed by the caller).
enum ToneCurves {
    /// IEC 61966-2.1.
    static func sRGB() -> OpaquePointer? { parametric(gamma: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045) }

    /// ITU-R BT.709's (and BT.601's and BT.2020's) camera curve, inverted.
    static func bt709() -> OpaquePointer? { parametric(gamma: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081) }

    static func power(_ gamma: Double) -> OpaquePointer? {
        cmsBuildGamma(nil, gamma)
    }

    /// lcms2's type 4: Y = (aX + b)^gamma for X ≥ d, Y = cX below.
    private static func parametric(gamma: Double, a: Double, b: Double, c: Double, d: Double) -> OpaquePointer? {
        let parameters = [gamma, a, b, c, d]
        return cmsBuildParametricToneCurve(nil, 4, parameters)
    }

    /// ITU-T H.273 transfer characteristics. HDR curves (PQ, HLG) are brought to SDR: their reference
    /// white (203 cd/m², ITU-R BT.2408) is white, and what is brighter rolls off instead of clipping.
    static func curve(cicp: Int) -> OpaquePointer? {
        switch cicp {
        case 1, 6, 14, 15: bt709()
        case 4: power(2.2)
        case 5: power(2.8)
        case 8: power(1)
        case 16: tabulated { HDR.fromPQ($0) }
        case 18: tabulated { HDR.fromHLG($0) }
        default: sRGB()   // 13 (sRGB), 2 (unspecified) and the rest
        }
    }

    private static func tabulated(_ f: (Double) -> Double) -> OpaquePointer? {
        let values = (0..<4096).map { Float(f(Double($0) / 4095)) }
        return cmsBuildTabulatedToneCurveFloat(nil, UInt32(values.count), values)
    }
}

/// HDR transfer curves to relative SDR light, 0…1.
enum HDR {
    /// SDR reference white, cd/m² (ITU-R BT.2408).
    static let referenceWhite = 203.0

    /// SMPTE ST 2084: the signal's absolute light, then brought to SDR.
    static func fromPQ(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(e, 0), 1 / m2)
        let nits = 10_000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
        return rollOff(nits / referenceWhite)
    }

    /// ARIB STD-B67 (HLG), its inverse OETF, with the system gamma of a 1000 cd/m² display.
    static func fromHLG(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return rollOff(pow(scene, 1.2) * 1000 / referenceWhite)
    }

    /// Identity up to `knee`, then a curve that meets 1 only far above it (no hard clip).
    static func rollOff(_ x: Double) -> Double {
        let knee = 0.8
        guard x > knee else { return x }
        let over = x - knee
        return knee + (1 - knee) * over / (over + (1 - knee))
    }
}

extension Chromaticities {
    /// ITU-T H.273 colour primaries; nil for a code point without a definition (2: unspecified).
    init?(cicp: Int) {
        let d65 = (0.3127, 0.3290)
        switch cicp {
        case 1: self = .sRGB
        case 4: self.init(white: (0.310, 0.316), red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08))
        case 5: self.init(white: d65, red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06))
        case 6, 7: self.init(white: d65, red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070))
        case 8: self.init(white: (0.310, 0.316), red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049))
        case 9: self.init(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))
        case 11: self.init(white: (0.314, 0.351), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        case 12: self.init(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        case 22: self.init(white: d65, red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077))
        default: return nil
        }
    }
}
