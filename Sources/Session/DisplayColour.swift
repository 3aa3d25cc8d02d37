import Imaging
import Logging

/// The colours the window shows pictures in: the display's profile where the desktop set one, sRGB
/// otherwise (and when the profile set can't be read, which is said once).
enum DisplayColour {
    static func target(profile: [UInt8]?, logger: Logger) -> ColourTarget {
        guard let bytes = profile else { return .sRGB }
        guard let target = ColourTarget(iccProfile: bytes) else {
            logger.warning("the display's colour profile (\(bytes.count) bytes) is not an RGB profile lcms2 can read; colours are shown as sRGB")
            return .sRGB
        }
        logger.debug("display colour profile: \(target.name)\(target.isSRGBLike ? " (sRGB: nothing to convert)" : "")")
        return target
    }
}
