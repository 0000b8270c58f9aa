/// RFC 3339 timestamps in UTC with millisecond precision (`2025-05-01T12:34:56.789Z`), from
/// nanoseconds since the Unix epoch, without Foundation.
enum UTCTimestamp {
    static func format(nanosecondsSinceEpoch: Int64) -> String {
        let totalMilliseconds = nanosecondsSinceEpoch / 1_000_000
        var days = totalMilliseconds / 86_400_000
        var millisecondOfDay = totalMilliseconds % 86_400_000
        if millisecondOfDay < 0 {
            millisecondOfDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let seconds = millisecondOfDay / 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
            + "." + pad(millisecondOfDay % 1000, 3) + "Z"
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01, computed in 400-year eras
    /// (146,097 days each) with years starting in March, so the leap day is the era's last day.
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
