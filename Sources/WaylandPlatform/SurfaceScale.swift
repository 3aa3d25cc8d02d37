/// The scale the window's buffers are drawn at (device pixels a surface unit), from what the compositor
/// says of its surface: the preferred fractional scale (wp_fractional_scale_v1, in 120ths) where it
/// says one; otherwise the highest scale among the outputs the surface is on (entered and not left:
/// across two outputs, the sharper one's); before either, the scale the window opened at.
struct SurfaceScale<Output: Hashable> {
    /// The compositor's preferred scale for the surface, if it sent one.
    private(set) var preferred: Double?
    /// The outputs the surface is on, with their scales.
    private var outputs: [Output: Double] = [:]
    private let opening: Double

    init(opening: Double) {
        self.opening = opening
    }

    var current: Double { preferred ?? outputs.values.max() ?? opening }

    /// `wp_fractional_scale_v1.preferred_scale`: the scale × 120 (0 says nothing).
    mutating func preferredScale(_ numerator: UInt32) {
        if numerator > 0 { preferred = Double(numerator) / 120 }
    }

    /// `wl_surface.enter` on an output of `scale`.
    mutating func entered(_ output: Output, scale: Double) { outputs[output] = scale }

    /// `wl_surface.leave`.
    mutating func left(_ output: Output) { outputs[output] = nil }
}
