/// The arithmetic and formatting every suite's figures share.

/// The middle of `times` (the upper one of an even count).
func median(_ times: [Duration]) -> Duration {
    times.sorted()[times.count / 2]
}

/// `duration` in seconds.
func seconds(_ duration: Duration) -> Double {
    let (whole, atto) = duration.components
    return Double(whole) + Double(atto) / 1e18
}

/// `value` rounded to two decimals, for ratios.
func fixed(_ value: Double) -> String {
    "\((value * 100).rounded() / 100)"
}
