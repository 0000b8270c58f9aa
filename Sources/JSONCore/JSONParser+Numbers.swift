// Numbers: RFC 8259's grammar exactly (`-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`).
// Integers without fraction or exponent that fit Int64 stay exact; everything else is a
// correctly rounded Double (Clinger's exact fast path, else the standard library's parser).

extension JSONParser {
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if base[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < end else {
            throw JSONParseError(.invalidNumber, "expected a digit after '-' but the input ended", at: position)
        }
        // Digits accumulate in `mantissa` while they fit; past that, the slow path reparses the text.
        var mantissa: UInt64 = 0
        var mantissaOverflowed = false
        let first = base[position]
        if first == UInt8(ascii: "0") {
            position += 1
            if position < end, isDigit(base[position]) {
                throw JSONParseError(.invalidNumber, "leading zeros are not allowed in numbers", at: start)
            }
        } else if isDigit(first) {
            while position < end, isDigit(base[position]) {
                let digit = UInt64(base[position] &- UInt8(ascii: "0"))
                if !mantissaOverflowed {
                    let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(digit)
                    if overflow1 || overflow2 { mantissaOverflowed = true } else { mantissa = sum }
                }
                position += 1
            }
        } else {
            throw JSONParseError(.invalidNumber, "expected a digit after '-' but found \(describeByte(at: position))", at: position)
        }

        var isInteger = true
        var fractionDigits = 0
        if position < end, base[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < end, isDigit(base[position]) else {
                throw JSONParseError(.invalidNumber, "expected a digit after the decimal point but found \(describeByte(at: position))", at: position)
            }
            while position < end, isDigit(base[position]) {
                if !mantissaOverflowed {
                    let digit = UInt64(base[position] &- UInt8(ascii: "0"))
                    let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(digit)
                    if overflow1 || overflow2 { mantissaOverflowed = true } else {
                        mantissa = sum
                        fractionDigits += 1
                    }
                }
                position += 1
            }
        }

        var exponent = 0
        if position < end, base[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < end, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                exponentNegative = base[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < end, isDigit(base[position]) else {
                throw JSONParseError(.invalidNumber, "expected a digit in the exponent but found \(describeByte(at: position))", at: position)
            }
            while position < end, isDigit(base[position]) {
                // Saturate: the exact value does not matter past any double's range.
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[position] &- UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger, !mantissaOverflowed {
            if negative {
                if mantissa == 0 { return .double(-0.0) }  // keep the sign of "-0"
                if mantissa <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- mantissa)) }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }

        // Clinger's fast path: both the mantissa and the power of ten are exact doubles,
        // so one IEEE multiplication or division gives the correctly rounded result.
        if !mantissaOverflowed, mantissa <= 1 << 53 {
            let scale = exponent - fractionDigits
            if scale >= -22, scale <= 22 {
                var value = Double(mantissa)
                value = scale < 0 ? value / exactPowerOfTen(-scale) : value * exactPowerOfTen(scale)
                return .double(negative ? -value : value)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(.invalidNumber, "number \(Self.abbreviated(text)) is out of the range of a 64-bit float", at: start)
        }
        return .double(value)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// A number's text for an error message: whole up to 40 characters, else its first 20 and
    /// its length (a 20,000-digit number is not repeated back in full).
    static func abbreviated(_ text: String) -> String {
        let count = text.utf8.count
        guard count > 40 else { return text }
        return String(text.utf8.prefix(20)).map { $0 + "… (\(count) characters)" } ?? "of \(count) characters"
    }

    /// 10^n for 0 ≤ n ≤ 22, each exactly representable as a Double.
    @inline(__always)
    func exactPowerOfTen(_ n: Int) -> Double {
        var result = 1.0
        var remaining = n
        // At most 22 iterations, and only on the rare fractional path of short numbers.
        while remaining >= 4 { result *= 1e4; remaining -= 4 }
        while remaining > 0 { result *= 10; remaining -= 1 }
        return result
    }
}
