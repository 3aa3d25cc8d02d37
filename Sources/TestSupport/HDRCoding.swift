import Foundation

/// How an HDR camera codes a colour, from the standards (the inverse of what a viewer shows): sRGB to linear light,
/// to BT.2020's primaries, SDR white at BT.2408's 203 cd/m², then the HLG (ARIB STD-B67) or PQ (SMPTE ST 2084) curve.
public enum HDRCoding {
    /// R'G'B' signal, 0…1, for `colour` (which stays below the viewer's roll-off: an SDR light of 0.8).
    public static func signal(sRGB colour: [UInt8], hlg: Bool) -> [Double] {
        let light = colour.map { linear(Double($0) / 255) }
        // ITU-R BT.2087's matrix: linear BT.709 to linear BT.2020.
        let m = [0.6274, 0.3293, 0.0433, 0.0691, 0.9195, 0.0114, 0.0164, 0.0880, 0.8956]
        let wide = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + m[3 * row + $1] * light[$1] } }
        return wide.map { hlg ? hlgSignal(sdr: $0) : pqSignal(sdr: $0) }
    }

    private static func linear(_ code: Double) -> Double {
        code <= 0.04045 ? code / 12.92 : pow((code + 0.055) / 1.055, 2.4)
    }

    /// Scene light for a 1000 cd/m² display (system gamma 1.2), then the HLG OETF.
    private static func hlgSignal(sdr: Double) -> Double {
        let scene = pow(sdr * 203 / 1000, 1 / 1.2)
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        return scene <= 1.0 / 12 ? sqrt(3 * scene) : a * log(12 * scene - b) + c
    }

    /// Absolute light (cd/m²) through the PQ inverse EOTF.
    private static func pqSignal(sdr: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(sdr * 203 / 10_000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }
}
