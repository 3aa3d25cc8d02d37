import Foundation
import Glibc

/// This machine's time zone as the C library keeps it (`TZ`, else `/etc/localtime`: the zone `date` shows). Its
/// offsets are what the timeline needs, and reading them here does not load ICU's zone data, which
/// `TimeZone.current` does (2 MiB of a launch's memory that shows one photo).
public enum LocalZone {
    /// Seconds east of UTC on the local clock at `seconds` since 1970 UTC.
    public static func secondsFromGMT(at seconds: Double) -> Int {
        var instant = time_t(seconds.rounded(.down))
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// `zone`'s offset at `seconds`, or the local one's when it is nil.
    public static func secondsFromGMT(at seconds: Double, in zone: TimeZone?) -> Int {
        zone?.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)) ?? secondsFromGMT(at: seconds)
    }
}
