import CAV
import CLCMS2
import Foundation

/// How an HDR clip (HLG or PQ, as phones film them) is shown on an SDR display: the same bringing-down as an HDR
/// HEIC's (`HDR`: its reference white is white, brighter rolls off), done by the clip's decoder on each picture.
enum ClipToneMap {
    /// The tone map for a clip of these H.273 code points; nil for an SDR clip (its pictures are shown as they are).
    static func tone(primaries: Int, transfer: Int) -> photozoom_clip_tone? {
        let light: (Double) -> Double
        switch transfer {
        case 16: light = HDR.fromPQ
        case 18: light = HDR.fromHLG
        default: return nil
        }
        guard let matrix = matrixToSRGB(from: Chromaticities(cicp: primaries) ?? Chromaticities(cicp: 9)!) else { return nil }
        var tone = photozoom_clip_tone()
        fill(&tone.curve, (0..<4096).map { Float(light(Double($0) / 4095)) })
        fill(&tone.matrix, matrix.map { Float($0) })
        fill(&tone.encode, (0..<4096).map { UInt8((sRGBCode(Double($0) / 4095) * 255).rounded()) })
        return tone
    }

    /// Sets a C array (imported as a tuple of `Element`) to `values`.
    private static func fill<Tuple, Element>(_ tuple: inout Tuple, _ values: [Element]) {
        withUnsafeMutableBytes(of: &tuple) { bytes in
            let slots = bytes.bindMemory(to: Element.self)
            for (index, value) in values.prefix(slots.count).enumerated() { slots[index] = value }
        }
    }

    /// IEC 61966-2.1's encoding of linear light.
    static func sRGBCode(_ light: Double) -> Double {
        light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055
    }

    /// The row-major matrix that takes linear light of `primaries` to linear sRGB light, as lcms2 works it out.
    static func matrixToSRGB(from primaries: Chromaticities) -> [Double]? {
        guard let source = ColourProfile(primaries: primaries, curve: ToneCurves.power(1)),
              let target = ColourProfile(primaries: .sRGB, curve: ToneCurves.power(1)) else { return nil }
        let format = photozoom_lcms_rgb_double()
        guard let transform = cmsCreateTransform(source.handle, format, target.handle, format, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                                 UInt32(cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE)) else { return nil }
        defer { cmsDeleteTransform(transform) }
        let units: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var columns = [Double](repeating: 0, count: 9)
        cmsDoTransform(transform, units, &columns, 3)
        // columns[3c + r] is row r of column c.
        return (0..<9).map { columns[3 * ($0 % 3) + $0 / 3] }
    }
}
