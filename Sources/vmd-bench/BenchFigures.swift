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

/// The middle of `values` (the upper one of an even count); 0 for none.
func middleValue(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// `nanoseconds` as microseconds with one decimal: "12.3".
func microsText(_ nanoseconds: UInt64) -> String {
    let tenths = (nanoseconds + 50) / 100
    return "\(tenths / 10).\(tenths % 10)"
}

/// `perSecond` rounded to a whole number with thousands separated: "1,234,567".
func groupedRate(_ perSecond: Double) -> String {
    var digits = String(Int(perSecond.rounded()))
    var result = ""
    while digits.count > 3 {
        result = "," + digits.suffix(3) + result
        digits = String(digits.dropLast(3))
    }
    return digits + result
}

/// `value` with exactly two decimals: "1.05".
func twoDecimals(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
