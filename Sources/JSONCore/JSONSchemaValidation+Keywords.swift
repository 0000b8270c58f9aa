// The keyword checks of a validation run, one function per kind of value.

extension JSONSchemaValidation {
    mutating func checkNumber(_ keywords: JSONSchemaNode.Keywords, _ value: JSONValue) {
        let got = value.encodedString()
        if let bound = keywords.minimum, compare(value, bound) < 0 {
            fail(expected: "a number >= \(bound)", got: got)
        }
        if let bound = keywords.maximum, compare(value, bound) > 0 {
            fail(expected: "a number <= \(bound)", got: got)
        }
        if let bound = keywords.exclusiveMinimum, compare(value, bound) <= 0 {
            fail(expected: "a number > \(bound)", got: got)
        }
        if let bound = keywords.exclusiveMaximum, compare(value, bound) >= 0 {
            fail(expected: "a number < \(bound)", got: got)
        }
        if let divisor = keywords.multipleOf, !isMultiple(value, of: divisor) {
            fail(expected: "a multiple of \(JSONValue.double(divisor))", got: got)
        }
    }

    /// Exact for two integers; otherwise compares as doubles.
    func compare(_ left: JSONValue, _ right: JSONValue) -> Int {
        if case .integer(let a) = left, case .integer(let b) = right { return a < b ? -1 : (a == b ? 0 : 1) }
        let a = left.doubleValue ?? 0, b = right.doubleValue ?? 0
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    func isMultiple(_ value: JSONValue, of divisor: Double) -> Bool {
        if case .integer(let number) = value, let whole = JSONValue.exactInteger(divisor), whole != 0 {
            return number % whole == 0
        }
        guard let number = value.doubleValue else { return false }
        let quotient = number / divisor
        // Past 2^53 every double is an integer; below, compare with the nearest integer
        // allowing for the rounding of decimal divisors (0.07 / 0.01 = 7.000000000000001).
        guard quotient.magnitude < 9_007_199_254_740_992 else { return true }
        let truncated = Double(Int64(quotient))
        let nearest = (quotient - truncated).magnitude >= 0.5 ? truncated + (quotient < 0 ? -1 : 1) : truncated
        return (quotient - nearest).magnitude <= 1e-9 * max(1, quotient.magnitude)
    }

    mutating func checkString(_ keywords: JSONSchemaNode.Keywords, _ text: String) {
        if keywords.minLength != nil || keywords.maxLength != nil {
            // JSON Schema counts characters as code points (Unicode scalars), not graphemes or bytes.
            let length = text.unicodeScalars.count
            if let minimum = keywords.minLength, length < minimum {
                fail(expected: "a string of at least \(minimum) characters", got: "a string of \(length) characters")
            }
            if let maximum = keywords.maxLength, length > maximum {
                fail(expected: "a string of at most \(maximum) characters", got: "a string of \(length) characters")
            }
        }
        if let source = keywords.pattern {
            let matches = (try? Regex(source)).map { text.contains($0) } ?? false
            if !matches { fail(expected: "a string matching \(JSONValue.string(source))", got: JSONSchemaValidation.brief(.string(text))) }
        }
    }

    mutating func checkArray(_ keywords: JSONSchemaNode.Keywords, _ elements: [JSONValue]) {
        if let minimum = keywords.minItems, elements.count < minimum {
            fail(expected: "an array of at least \(minimum) items", got: "\(elements.count) items")
        }
        if let maximum = keywords.maxItems, elements.count > maximum {
            fail(expected: "an array of at most \(maximum) items", got: "\(elements.count) items")
        }
        if keywords.uniqueItems, Set(elements).count != elements.count {
            fail(expected: "an array of unique items", got: "duplicate items")
        }
        for (index, element) in elements.enumerated() {
            guard !isFull else { return }
            let node = index < keywords.prefixItems.count ? keywords.prefixItems[index] : keywords.items
            guard let node else { continue }
            withComponent(.index(index)) { $0.check(node, element) }
        }
    }

    mutating func checkObject(_ keywords: JSONSchemaNode.Keywords, _ object: JSONObject) {
        for name in keywords.required where !object.contains(name) {
            let wanted = keywords.properties[name].map { expectation($0) } ?? "a value"
            fail(expected: wanted, got: "missing", message: "missing required member \"\(name)\"", extra: .key(name))
        }
        if let minimum = keywords.minProperties, object.count < minimum {
            fail(expected: "an object with at least \(minimum) members", got: "\(object.count) members")
        }
        if let maximum = keywords.maxProperties, object.count > maximum {
            fail(expected: "an object with at most \(maximum) members", got: "\(object.count) members")
        }
        for (key, member) in object {
            guard !isFull else { return }
            if let node = keywords.properties[key] {
                withComponent(.key(key)) { $0.check(node, member) }
            } else if let extra = keywords.additionalProperties {
                if extra.keywords.constantOutcome == false {
                    let allowed = keywords.propertyOrder.isEmpty ? "none" : keywords.propertyOrder.joined(separator: ", ")
                    fail(expected: "no member \"\(key)\"", got: member.typeName,
                         message: "unexpected member \"\(key)\" (allowed: \(allowed))", extra: .key(key))
                } else {
                    withComponent(.key(key)) { $0.check(extra, member) }
                }
            }
        }
    }

    mutating func checkCombinators(_ keywords: JSONSchemaNode.Keywords, _ value: JSONValue) {
        for node in keywords.allOf { check(node, value) }
        if !keywords.anyOf.isEmpty, !keywords.anyOf.contains(where: { passes($0, value) }) {
            failAlternatives(keywords.anyOf, value)
        }
        if !keywords.oneOf.isEmpty {
            let matching = keywords.oneOf.filter { passes($0, value) }.count
            if matching == 0 {
                failAlternatives(keywords.oneOf, value)
            } else if matching > 1 {
                fail(expected: "a value matching exactly one of the oneOf schemas", got: "a value matching \(matching) of them")
            }
        }
        if let negated = keywords.not, passes(negated, value) {
            fail(expected: "a value not matching the \"not\" schema", got: JSONSchemaValidation.brief(value))
        }
    }

    /// No alternative matched. If exactly one alternative accepts the value's type, its own
    /// violation is the useful one (an optional object with a bad member); else summarize.
    mutating func failAlternatives(_ branches: [JSONSchemaNode], _ value: JSONValue) {
        let valueTypes = JSONSchemaValidation.types(of: value)
        let plausible = branches.filter { branch in
            guard let types = branch.keywords.types else { return branch.keywords.reference != nil || branch.keywords.constantOutcome == nil }
            return valueTypes.contains(where: types.contains)
        }
        if plausible.count == 1, let branch = plausible.first {
            let before = violations.count
            check(branch, value)
            if violations.count == before { fail(expected: expectation(branch), got: JSONSchemaValidation.brief(value)) }
            return
        }
        let wanted = branches.map { expectation($0) }.joined(separator: " or ")
        fail(expected: wanted, got: value.typeName)
    }

    mutating func withComponent(_ component: JSONPath.Component, _ body: (inout JSONSchemaValidation) -> Void) {
        path.append(component)
        body(&self)
        path.removeLast()
    }
}
