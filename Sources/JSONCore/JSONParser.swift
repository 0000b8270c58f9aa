/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Hand-written recursive descent over raw memory: no intermediate tokens, strings
/// without escapes are created straight from the input bytes, numbers that fit `Int64`
/// stay exact. Everything RFC 8259 forbids is rejected with a precise ``JSONParseError``:
/// trailing commas, leading zeros, unknown escapes, lone surrogates, invalid UTF-8,
/// raw control characters in strings, and anything after the top-level value.
///
/// Use ``parse(_:options:)`` (or ``JSONValue/init(parsing:options:)``); the struct itself only
/// lives for one parse and never escapes the buffer it reads.
public struct JSONParser: ~Copyable {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var position = 0
    @usableFromInline let options: JSONParseOptions
    /// Members and elements of the containers being parsed, stacked: each container collects
    /// into the top of these and is then created with its exact size in one allocation,
    /// instead of growing its own array 1, 2, 4, 8… (fewer allocations, no slack kept).
    var memberStack: ParseStack<JSONObject.Member>
    var elementStack: ParseStack<JSONValue>

    init(
        base: UnsafePointer<UInt8>, count: Int, options: JSONParseOptions,
        memberStorage: UnsafeMutableBufferPointer<JSONObject.Member>, elementStorage: UnsafeMutableBufferPointer<JSONValue>
    ) {
        self.base = base
        self.end = count
        self.options = options
        memberStack = ParseStack(startingIn: memberStorage)
        elementStack = ParseStack(startingIn: elementStorage)
    }

    /// Members and elements the stacks hold before they allocate: a small object or array
    /// and its parents parse without a heap allocation for the stacks.
    static var lentStackCapacity: Int { 8 }

    /// Runs `body` with a parser over `count` bytes at `base` whose stacks start in
    /// temporary memory of this call (see ``lentStackCapacity``).
    @inline(__always)
    static func withParser<Value>(
        base: UnsafePointer<UInt8>, count: Int, options: JSONParseOptions,
        _ body: (inout JSONParser) throws(JSONParseError) -> Value
    ) throws(JSONParseError) -> Value {
        // The temporary allocations take an untyped throwing closure; the outcome travels
        // in a Result instead.
        let outcome = withUnsafeTemporaryAllocation(of: JSONObject.Member.self, capacity: lentStackCapacity) { members in
            withUnsafeTemporaryAllocation(of: JSONValue.self, capacity: lentStackCapacity) { elements in
                var parser = JSONParser(
                    base: base, count: count, options: options, memberStorage: members, elementStorage: elements)
                return Result { () throws(JSONParseError) -> Value in try body(&parser) }
            }
        }
        return try outcome.get()
    }

    /// Parses exactly one JSON value (with optional surrounding whitespace) from `bytes`.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, options: JSONParseOptions = .default
    ) throws(JSONParseError) -> JSONValue {
        guard let raw = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(.unexpectedEnd, "expected a JSON value but the input is empty", at: 0)
        }
        return try withParser(base: raw.assumingMemoryBound(to: UInt8.self), count: bytes.count, options: options) {
            parser throws(JSONParseError) in try parser.parseDocument()
        }
    }

    /// Parses exactly one JSON value from any contiguous (or copyable) byte collection.
    public static func parse(
        _ bytes: some Collection<UInt8>, options: JSONParseOptions = .default
    ) throws(JSONParseError) -> JSONValue {
        // The closure APIs below are `rethrows` (untyped), so the error travels in a local
        // instead: cheaper than wrapping every parsed value in a Result.
        var failure: JSONParseError? = nil
        let parsed = bytes.withContiguousStorageIfAvailable { buffer -> JSONValue in
            do throws(JSONParseError) {
                return try parse(UnsafeRawBufferPointer(buffer), options: options)
            } catch {
                failure = error
                return .null
            }
        }
        if let failure { throw failure }
        if let parsed { return parsed }
        let copy = Array(bytes)
        let value = copy.withUnsafeBytes { buffer -> JSONValue in
            do throws(JSONParseError) {
                return try parse(buffer, options: options)
            } catch {
                failure = error
                return .null
            }
        }
        if let failure { throw failure }
        return value
    }

    /// Parses the one JSON value that starts at byte `offset` of `bytes` (after optional
    /// whitespace), read as a member nested in `depth` enclosing containers, and returns it
    /// with the offset just past it; what follows is the caller's to read.
    ///
    /// For readers that walk a known envelope themselves and hand the parser only the values
    /// they do not read (VMServer's request frames, RequestFrame.swift). For the same bytes it
    /// builds the value and throws the errors that ``parse(_:options:)`` does, `maxDepth`
    /// included; error offsets count from the start of `bytes`.
    package static func parseMember(
        in bytes: UnsafeRawBufferPointer, at offset: Int, depth: Int, options: JSONParseOptions
    ) throws(JSONParseError) -> (value: JSONValue, end: Int) {
        guard let raw = bytes.baseAddress, offset >= 0, offset <= bytes.count else {
            throw JSONParseError(.unexpectedEnd, "expected a JSON value but the input ended", at: max(0, offset))
        }
        return try withParser(base: raw.assumingMemoryBound(to: UInt8.self), count: bytes.count, options: options) {
            parser throws(JSONParseError) in
            parser.position = offset
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: depth)
            return (value, parser.position)
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if position == end {
            throw JSONParseError(.unexpectedEnd, "expected a JSON value but the input holds only whitespace", at: position)
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position != end {
            throw JSONParseError(.trailingData, "unexpected \(describeByte(at: position)) after the JSON value", at: position)
        }
        return value
    }

    // MARK: - Values

    @inline(__always)
    mutating func skipWhitespace() {
        var index = position
        while index < end {
            switch base[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default:
                position = index
                return
            }
        }
        position = index
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < end else {
            throw JSONParseError(.unexpectedEnd, "expected a JSON value but the input ended", at: position)
        }
        switch base[position] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw JSONParseError(.unexpectedByte, "expected a JSON value but found \(describeByte(at: position))", at: position)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<length {
            let here = start + offset
            guard here < end else {
                throw JSONParseError(.unexpectedEnd, "expected '\(literal)' but the input ended", at: here)
            }
            guard base[here] == text[offset] else {
                throw JSONParseError(.unexpectedByte, "expected '\(literal)' but found \(describeByte(at: here))", at: here)
            }
        }
        position = start + length
    }

    mutating func enterContainer(depth: Int) throws(JSONParseError) {
        if depth > options.maxDepth {
            throw JSONParseError(.tooDeep, "nesting deeper than the maximum of \(options.maxDepth) levels", at: position)
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try enterContainer(depth: depth)
        position += 1  // '['
        skipWhitespace()
        if position < end, base[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let firstElement = elementStack.count
        while true {
            let element = try parseValue(depth: depth)
            elementStack.push(element)
            skipWhitespace()
            guard position < end else {
                throw JSONParseError(.unexpectedEnd, "expected ',' or ']' after array element but the input ended", at: position)
            }
            switch base[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if position < end, base[position] == UInt8(ascii: "]") {
                    throw JSONParseError(.unexpectedByte, "trailing comma before ']' is not allowed", at: position)
                }
            case UInt8(ascii: "]"):
                position += 1
                return .array(elementStack.popArray(from: firstElement))
            default:
                throw JSONParseError(.unexpectedByte, "expected ',' or ']' after array element but found \(describeByte(at: position))", at: position)
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        try enterContainer(depth: depth)
        position += 1  // '{'
        skipWhitespace()
        if position < end, base[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        let first = memberStack.count
        // Only large objects pay for a hash set to find repeated keys; small ones scan.
        var seenKeys: [String: Int]? = nil
        // Whether every key so far was plain ASCII: such keys differ when their lengths do.
        var keysAreASCII = true
        while true {
            guard position < end else {
                throw JSONParseError(.unexpectedEnd, "expected '\"' to start an object key but the input ended", at: position)
            }
            guard base[position] == UInt8(ascii: "\"") else {
                let message = base[position] == UInt8(ascii: "}")
                    ? "trailing comma before '}' is not allowed"
                    : "expected '\"' to start an object key but found \(describeByte(at: position))"
                throw JSONParseError(.unexpectedByte, message, at: position)
            }
            let keyOffset = position
            var keyIsASCII = false
            let key = try parseString(isASCII: &keyIsASCII)
            keysAreASCII = keysAreASCII && keyIsASCII
            skipWhitespace()
            guard position < end else {
                throw JSONParseError(.unexpectedEnd, "expected ':' after object key but the input ended", at: position)
            }
            guard base[position] == UInt8(ascii: ":") else {
                throw JSONParseError(.unexpectedByte, "expected ':' after object key but found \(describeByte(at: position))", at: position)
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if let existing = existingMember(key, from: first, allASCII: keysAreASCII, seen: &seenKeys) {
                if options.duplicateKeys == .reject {
                    throw JSONParseError(.duplicateKey, "duplicate object key \"\(key)\"", at: keyOffset)
                }
                memberStack[existing].value = value
            } else {
                memberStack.push(JSONObject.Member(key: key, value: value))
            }
            skipWhitespace()
            guard position < end else {
                throw JSONParseError(.unexpectedEnd, "expected ',' or '}' after object member but the input ended", at: position)
            }
            switch base[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return .object(JSONObject(uniqueMembers: memberStack.popArray(from: first)))
            default:
                throw JSONParseError(.unexpectedByte, "expected ',' or '}' after object member but found \(describeByte(at: position))", at: position)
            }
        }
    }

    /// Index in `memberStack` of a member named `key` of the object starting at `first`.
    /// `allASCII`: `key` and the object's other keys were written as plain ASCII.
    mutating func existingMember(_ key: String, from first: Int, allASCII: Bool, seen: inout [String: Int]?) -> Int? {
        let count = memberStack.count - first
        if count <= JSONObject.indexThreshold {
            // String equality is canonical equivalence, where strings of different lengths can
            // be equal ("K" and the Kelvin sign); between ASCII strings they never are, and
            // comparing lengths first skips most of the full comparisons.
            guard allASCII else { return memberStack.firstIndex(from: first) { $0.key == key } }
            let length = key.utf8.count
            return memberStack.firstIndex(from: first) { $0.key.utf8.count == length && $0.key == key }
        }
        if seen == nil {
            var built = [String: Int](minimumCapacity: count * 2)
            for index in first..<memberStack.count { built[memberStack[index].key] = index }
            seen = built
        }
        if let index = seen?[key] { return index }
        seen?[key] = memberStack.count  // the index it is about to be appended at
        return nil
    }

    /// A readable name for the byte at `offset`, for error messages.
    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "the end of the input" }
        let byte = base[offset]
        switch byte {
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
        }
    }
}

extension JSONValue {
    /// Parses one JSON value from UTF-8 bytes (`[UInt8]`, `ArraySlice<UInt8>`, any byte collection).
    public init(parsing bytes: some Collection<UInt8>, options: JSONParseOptions = .default) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, options: options)
    }

    /// Parses one JSON value from raw UTF-8 memory (a socket read buffer, say).
    public init(parsing bytes: UnsafeRawBufferPointer, options: JSONParseOptions = .default) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, options: options)
    }

    /// Parses one JSON value from text.
    public init(parsing text: String, options: JSONParseOptions = .default) throws(JSONParseError) {
        var text = text
        var failure: JSONParseError? = nil
        let value = text.withUTF8 { buffer -> JSONValue in
            do throws(JSONParseError) {
                return try JSONParser.parse(UnsafeRawBufferPointer(buffer), options: options)
            } catch {
                failure = error
                return .null
            }
        }
        if let failure { throw failure }
        self = value
    }
}
