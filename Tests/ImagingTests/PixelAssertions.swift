import Foundation
import Pixels
import Testing

/// Straight 8-bit channels of a premultiplied ARGB32 pixel.
struct RGBA: Equatable, CustomStringConvertible {
    let r, g, b, a: Int

    init(r: Int, g: Int, b: Int, a: Int = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    init(premultiplied p: UInt32) {
        let a = Int(p >> 24)
        func straight(_ c: UInt32) -> Int { a == 0 ? 0 : min(255, (Int(c & 0xFF) * 255 + a / 2) / a) }
        self.init(r: straight(p >> 16), g: straight(p >> 8), b: straight(p), a: a)
    }

    func isClose(to other: RGBA, tolerance: Int) -> Bool {
        abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance
            && abs(b - other.b) <= tolerance && abs(a - other.a) <= tolerance
    }

    var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}

extension PixelImage {
    func rgba(x: Int, y: Int) -> RGBA { RGBA(premultiplied: pixel(x: x, y: y)) }

    /// The mean of the `side` x `side` block from (x, y), each channel rounded.
    func mean(x: Int, y: Int, side: Int) -> RGBA {
        var sums = [0, 0, 0, 0]
        for v in y..<y + side {
            for u in x..<x + side {
                let p = rgba(x: u, y: v)
                sums[0] += p.r; sums[1] += p.g; sums[2] += p.b; sums[3] += p.a
            }
        }
        let n = side * side
        return RGBA(r: (sums[0] + n / 2) / n, g: (sums[1] + n / 2) / n, b: (sums[2] + n / 2) / n, a: (sums[3] + n / 2) / n)
    }

    /// The colour at the centre of each quadrant: top-left, top-right, bottom-left, bottom-right.
    var quadrantColors: [RGBA] {
        let xs = [width / 4, width * 3 / 4], ys = [height / 4, height * 3 / 4]
        return [rgba(x: xs[0], y: ys[0]), rgba(x: xs[1], y: ys[0]), rgba(x: xs[0], y: ys[1]), rgba(x: xs[1], y: ys[1])]
    }
}

func expectQuadrants(_ image: PixelImage, _ expected: [RGBA], tolerance: Int,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = image.quadrantColors
    for (i, (a, e)) in zip(actual, expected).enumerated() {
        #expect(a.isClose(to: e, tolerance: tolerance), "quadrant \(i): \(a), expected \(e)",
                sourceLocation: sourceLocation)
    }
}

let red = RGBA(r: 255, g: 0, b: 0), green = RGBA(r: 0, g: 255, b: 0)
let blue = RGBA(r: 0, g: 0, b: 255), white = RGBA(r: 255, g: 255, b: 255)
let black = RGBA(r: 0, g: 0, b: 0)
/// The fixtures' upright picture.
let quadrants = [red, green, blue, white]

extension RGBA {
    /// CIE L*a*b* (D65) of this sRGB colour, alpha ignored.
    var lab: (l: Double, a: Double, b: Double) {
        func linear(_ c: Int) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(self.r), linear(self.g), linear(self.b))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// CIE76 colour difference: about 2.3 is the smallest a person notices side by side.
    func deltaE(_ other: RGBA) -> Double {
        let (p, q) = (lab, other.lab)
        return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
    }
}
