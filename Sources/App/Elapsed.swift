/// How long something took, for `--verbose`'s lines.
extension ContinuousClock.Instant {
    /// Milliseconds from this instant until now.
    public var millisecondsUntilNow: Int64 {
        let (seconds, attoseconds) = (ContinuousClock.now - self).components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
