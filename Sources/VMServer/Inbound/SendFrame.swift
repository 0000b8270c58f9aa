import JSONCore
import JSONRPC

/// A `vm.send` read in one pass straight from its frame's bytes, without building a
/// ``JSONValue`` tree for the envelope and params.
///
/// ``read(_:)`` only accepts the common shape and returns `nil` for everything else, which
/// then takes the general path (`Server.receive` in Server+Frames.swift) so that every
/// reply and error stays exactly what it was. Accepted: one object whose members are exactly
/// `jsonrpc` (`"2.0"`), `method` (`"vm.send"`), `params` and optionally `id` (a string, an
/// integer of at most 18 digits, or `null`), in any order, each at most once; `params` an
/// object with `instance` and `input` (strings, `input` non-empty) and optionally `value`
/// (any JSON value). `instance` and `input` must hold no escapes and be valid UTF-8 (checked by
/// whoever turns them into strings). `null`, `true`, `false`, an integer of at most 18 digits
/// and a string without escapes are read here; an object or an array is only delimited when
/// asked (``rawValue``: read later by the input's own reader, or by
/// ``parseRawValue(options:)``, which check the delimiting: `Reader.lastValue()`); any other value (a fraction, an escaped string, an object or
/// array not delimited) is read by the general parser with the
/// server's options, as the general path would read it, and any error it finds gives `nil`.
/// Anything else — another member, a duplicate, bad syntax — gives `nil`.
///
/// Noncopyable: read once and used in place. As a copyable type, destroying the `SendFrame?`
/// each read returns went through its metadata's value witness on every send; now the
/// compiler destroys it directly (the figure: ViewModelDaemon.docc/Performance.md).
struct SendFrame: ~Copyable {
    /// `nil` for a notification.
    var id: RequestID?
    /// The `instance` string's bytes inside the frame (no escapes; not yet checked as UTF-8).
    var instance: UnsafeBufferPointer<UInt8>
    /// The `input` string's bytes inside the frame (non-empty; not yet checked as UTF-8).
    var input: UnsafeBufferPointer<UInt8>
    /// `nil` when omitted, or while the value is ``rawValue``.
    var value: JSONValue?
    /// An object or array value, not yet parsed: its bytes from the opening bracket to the
    /// matching closing one, found by counting brackets outside strings. Not checked: it is
    /// valid JSON only if the input's reader or ``parseRawValue(options:)`` reads all of it.
    var rawValue: UnsafeBufferPointer<UInt8>?

    /// The nesting of the params object, for the parser's `maxDepth` (a container `value` is
    /// one deeper, and the general parser checks it against `maxDepth` as it reads it).
    static let depth = 2

    /// Parses ``rawValue`` into ``value`` with the general parser, as the general path would
    /// read it from the frame; `false` when it is not one valid value (the general path then
    /// reports the frame's error).
    mutating func parseRawValue(options: JSONParseOptions) -> Bool {
        guard let raw = rawValue else { return true }
        do {
            let read = try JSONParser.parseMember(in: UnsafeRawBufferPointer(raw), at: 0, depth: Self.depth, options: options)
            guard read.end == raw.count else { return false }
            value = read.value
            rawValue = nil
            return true
        } catch {
            return false
        }
    }

    /// The frame as a plain `vm.send`, or `nil` when the general path must read it; `options`
    /// are the general parser's, for a value only it reads; with `delimitingContainers`, an
    /// object or array value is left as ``rawValue``.
    static func read(_ frame: UnsafeRawBufferPointer, options: JSONParseOptions, delimitingContainers: Bool) -> SendFrame? {
        guard let base = frame.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = Reader(base: base, end: frame.count)
        return reader.readEnvelope(options: options, delimitingContainers: delimitingContainers)
    }

    /// The names and literals the reader matches, packed as ``Reader``'s `packed(_:_:)` does.
    private enum Packed {
        static let id: UInt64 = 0x6469  // "id"
        static let input: UInt64 = 0x74_7570_6e69  // "input"
        static let value: UInt64 = 0x65_756c_6176  // "value"
        static let method: UInt64 = 0x646f_6874_656d  // "method"
        static let params: UInt64 = 0x736d_6172_6170  // "params"
        static let jsonrpc: UInt64 = 0x63_7072_6e6f_736a  // "jsonrpc"
        static let instance: UInt64 = 0x6563_6e61_7473_6e69  // "instance"
        static let type: UInt64 = 0x6570_7974  // "type"
        static let send: UInt64 = 0x64_6e65_732e_6d76  // "vm.send"
        static let version: UInt64 = 0x30_2e32  // "2.0"
        static let null: UInt64 = 0x6c6c_756e  // "null"
        static let `true`: UInt64 = 0x6575_7274  // "true"
        static let `false`: UInt64 = 0x65_736c_6166  // "false"
    }

    /// A cursor over the frame; every method returns `nil` (or `false`) on anything unusual.
    /// (It also reads the envelope of any other request: ``RequestFrame``.)
    struct Reader {
        let base: UnsafePointer<UInt8>
        let end: Int
        var position = 0
        /// The params' `value` when it was delimited rather than read (``SendFrame/rawValue``).
        var rawValue: UnsafeBufferPointer<UInt8>? = nil

        /// The frame as a ``RequestFrame``, or `nil` when the general path must read it.
        ///
        /// The envelope is an object whose members are exactly `jsonrpc` (`"2.0"`), `method` (a
        /// string without escapes, valid UTF-8), optionally `id` (as for a plain `vm.send`) and
        /// optionally `params`, in any order, each at most once. `params` must be an object or an
        /// array; the general parser reads it (``JSONParser/parseMember(in:at:depth:options:)``),
        /// and any error it finds gives `nil`, so that the general path reports it.
        ///
        /// With `yieldingSends`, a method of `vm.send` stops the reading there: it returns `nil`
        /// with `isSend` set, for the typed reader to take the frame instead.
        ///
        /// With `typingParams`, the params of a `vm.create` or `vm.destroy` in their common shape
        /// (``RequestFrame/TypedParams``) are read here into ``RequestFrame/typed`` instead of a
        /// tree, when `method` comes before them; any other shape of them is parsed as above. A
        /// type whose bytes are `knownType`'s is that string.
        mutating func readRequest(
            options: JSONParseOptions, yieldingSends: Bool, typingParams: Bool = false, knownType: String? = nil,
            isSend: inout Bool
        ) -> RequestFrame? {
            // The envelope is one container deep; the general parser refuses it below that.
            guard options.maxDepth >= 1, consume(UInt8(ascii: "{")) else { return nil }
            var id: RequestID?? = .none
            var sawVersion = false, sawParams = false
            var method: (start: Int, count: Int, packed: UInt64)? = nil
            var params: JSONValue? = nil
            var typedMethod: RequestFrame.TypedMethod? = nil
            var typedValue: UnsafeBufferPointer<UInt8>? = nil
            repeat {
                guard let key = readKey() else { return nil }
                switch key {
                case .jsonrpc:
                    guard !sawVersion, matchString(Packed.version) else { return nil }
                    sawVersion = true
                case .method:
                    skipWhitespace()
                    guard method == nil, let read = readPlainBytes() else { return nil }
                    if yieldingSends, read.count <= 8, read.packed == Packed.send {
                        isSend = true
                        return nil
                    }
                    method = read
                    // The params object is one level below the envelope: typed only where the
                    // general parser would accept it.
                    if typingParams, options.maxDepth >= SendFrame.depth {
                        typedMethod = RequestFrame.TypedMethod(UnsafeBufferPointer(start: base + read.start, count: read.count))
                    }
                case .id:
                    guard case .none = id, let read = readID() else { return nil }
                    id = .some(read)
                case .params:
                    guard !sawParams else { return nil }
                    sawParams = true
                    if let typedMethod, let value = readSoleStringMember(of: typedMethod) {
                        typedValue = value
                    } else {
                        guard let value = readContainer(options: options) else { return nil }
                        params = value
                    }
                default:
                    return nil
                }
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")), sawVersion, let method else { return nil }
            skipWhitespace()
            guard position == end else { return nil }
            if let typedMethod, let typedValue {
                // A value the general path would refuse (an empty type, bad UTF-8) is left to it.
                guard let typed = RequestFrame.TypedParams(typedMethod, value: typedValue, knownType: knownType) else { return nil }
                return RequestFrame(id: id.flatMap { $0 }, method: typedMethod.name, params: nil, typed: typed)
            }
            guard let name = methodName(method.start, method.count) else { return nil }
            return RequestFrame(id: id.flatMap { $0 }, method: name, params: params)
        }

        /// The bytes of the string value of an object at the cursor whose only member is
        /// `method`'s params member (`{"type": "<plain string>"}` for `vm.create`, `{"instance":
        /// …}` for `vm.destroy`, whitespace allowed), the cursor then after the object; `nil` for
        /// anything else (another or a repeated member, an escape, another value), the cursor
        /// left where it was.
        private mutating func readSoleStringMember(of method: RequestFrame.TypedMethod) -> UnsafeBufferPointer<UInt8>? {
            // Both names are at most 8 bytes: their packed words compare them whole (see
            // `readPlainBytes()`), with no loop over the bytes (~70 instructions per request).
            let (name, count): (UInt64, Int) = switch method {
            case .create: (Packed.type, 4)
            case .destroy: (Packed.instance, 8)
            }
            let start = position
            guard consume(UInt8(ascii: "{")) else { return nil }
            skipWhitespace()
            if let key = readPlainBytes(), key.count == count, key.packed == name,
               consume(UInt8(ascii: ":")), let value = readStringBytes(), consume(UInt8(ascii: "}")) {
                return value
            }
            position = start
            return nil
        }

        /// Whether `bytes` are `text`'s.
        static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            equal(bytes, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// Whether the two hold the same bytes (an index loop: `elementsEqual` cost ~230
        /// instructions for a 7-byte name in callgrind).
        static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == other.count else { return false }
            for index in 0..<bytes.count where bytes[index] != other[index] { return false }
            return true
        }

        /// The method name at `start`, `nil` if it is not UTF-8. ASCII (every name in
        /// Protocol/openrpc.json) is checked inline: `String(validating:)` cost ~700
        /// instructions more per request in callgrind.
        private func methodName(_ start: Int, _ count: Int) -> String? {
            let bytes = UnsafeBufferPointer(start: base + start, count: count)
            for byte in bytes where byte >= 0x80 {
                return String(validating: bytes, as: UTF8.self)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// An object or array at the cursor, read by the general parser as a member of the
        /// envelope; `nil` for any other value or any error (the general path reports it).
        private mutating func readContainer(options: JSONParseOptions) -> JSONValue? {
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: "{") || base[position] == UInt8(ascii: "[") else { return nil }
            do {
                let read = try JSONParser.parseMember(
                    in: UnsafeRawBufferPointer(start: base, count: end), at: position, depth: 1, options: options)
                position = read.end
                return read.value
            } catch {
                return nil
            }
        }

        mutating func readEnvelope(options: JSONParseOptions, delimitingContainers: Bool) -> SendFrame? {
            guard consume(UInt8(ascii: "{")) else { return nil }
            var id: RequestID?? = .none
            var sawVersion = false, sawMethod = false
            var params: (instance: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>, value: JSONValue?)? = nil
            repeat {
                guard let key = readKey() else { return nil }
                switch key {
                case .jsonrpc:
                    guard !sawVersion, matchString(Packed.version) else { return nil }
                    sawVersion = true
                case .method:
                    guard !sawMethod, matchString(Packed.send) else { return nil }
                    sawMethod = true
                case .id:
                    guard case .none = id, let read = readID() else { return nil }
                    id = .some(read)
                case .params:
                    guard params == nil, let read = readParams(options: options, delimitingContainers: delimitingContainers) else { return nil }
                    params = read
                default:
                    return nil
                }
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")), sawVersion, sawMethod, let params else { return nil }
            skipWhitespace()
            guard position == end else { return nil }
            return SendFrame(id: id.flatMap { $0 }, instance: params.instance, input: params.input, value: params.value, rawValue: rawValue)
        }

        private mutating func readParams(options: JSONParseOptions, delimitingContainers: Bool) -> (instance: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>, value: JSONValue?)? {
            guard consume(UInt8(ascii: "{")) else { return nil }
            var instance: UnsafeBufferPointer<UInt8>?, input: UnsafeBufferPointer<UInt8>?, value: JSONValue?
            repeat {
                guard let key = readKey() else { return nil }
                switch key {
                case .instance:
                    guard instance == nil, let bytes = readStringBytes() else { return nil }
                    instance = bytes
                case .input:
                    guard input == nil, let bytes = readStringBytes(), !bytes.isEmpty else { return nil }
                    input = bytes
                case .value:
                    guard value == nil, rawValue == nil,
                          let read = readValue(options: options, delimitingContainers: delimitingContainers,
                                               namesRead: instance != nil && input != nil) else { return nil }
                    value = read
                default:
                    return nil
                }
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")), let instance, let input else { return nil }
            return (instance, input, value)
        }

        /// The member names the reader knows.
        enum Key { case jsonrpc, method, id, params, instance, input, value }

        /// A member name and its colon.
        @inline(__always)
        private mutating func readKey() -> Key? {
            skipWhitespace()
            if let (key, length) = quickKey() {
                position += length
                guard consume(UInt8(ascii: ":")) else { return nil }
                return key
            }
            guard let (_, count, word) = readPlainBytes(), count <= 8 else { return nil }
            let key: Key
            switch word {
            case Packed.id: key = .id
            case Packed.input: key = .input
            case Packed.value: key = .value
            case Packed.method: key = .method
            case Packed.params: key = .params
            case Packed.jsonrpc: key = .jsonrpc
            case Packed.instance: key = .instance
            default: return nil
            }
            guard consume(UInt8(ascii: ":")) else { return nil }
            return key
        }

        /// The known member name at the cursor and the bytes it takes with its quotes, read with
        /// one load: the eight bytes after the opening quote compared, masked, with the name and
        /// its closing quote (whatever those bytes are, only a name exactly so spelt matches).
        /// `nil` for anything else, including a name too close to the frame's end, which
        /// ``readPlainBytes()`` then reads.
        @inline(__always)
        private func quickKey() -> (Key, Int)? {
            // "instance" needs its quote at position + 9.
            guard end - position >= 10, base[position] == UInt8(ascii: "\"") else { return nil }
            let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: position + 1, as: UInt64.self))
            switch UInt8(truncatingIfNeeded: word) {
            case UInt8(ascii: "i"):
                if word & Self.mask(3) == Self.quoted(Packed.id, 2) { return (.id, 4) }
                if word & Self.mask(6) == Self.quoted(Packed.input, 5) { return (.input, 7) }
                if word == Packed.instance, base[position + 9] == UInt8(ascii: "\"") { return (.instance, 10) }
            case UInt8(ascii: "j"):
                if word == Self.quoted(Packed.jsonrpc, 7) { return (.jsonrpc, 9) }
            case UInt8(ascii: "m"):
                if word & Self.mask(7) == Self.quoted(Packed.method, 6) { return (.method, 8) }
            case UInt8(ascii: "p"):
                if word & Self.mask(7) == Self.quoted(Packed.params, 6) { return (.params, 8) }
            case UInt8(ascii: "v"):
                if word & Self.mask(6) == Self.quoted(Packed.value, 5) { return (.value, 7) }
            default:
                break
            }
            return nil
        }

        /// The low `count` bytes of a word (`count` from 1 to 7).
        @inline(__always)
        private static func mask(_ count: UInt64) -> UInt64 { (1 << (8 * count)) &- 1 }

        /// `word`, the packed bytes of a `count`-byte name (at most 7), followed by a quote.
        @inline(__always)
        private static func quoted(_ word: UInt64, _ count: UInt64) -> UInt64 { word | 0x22 << (8 * count) }

        private mutating func readID() -> RequestID? {
            skipWhitespace()
            guard position < end else { return nil }
            switch base[position] {
            case UInt8(ascii: "\""): return readString().map(RequestID.string)
            case UInt8(ascii: "n"): return matchLiteral(Packed.null, count: 4) ? .null : nil
            default: return readInteger().map(RequestID.integer)
            }
        }

        /// The params' `value`: the common scalars read here, an object or array delimited for
        /// a later reader when asked (into ``rawValue``, the value then `nil`), anything else
        /// read by the general parser from the same place (the params object's members are at
        /// depth 2, as when the general path parses the whole frame). `nil` when no value can
        /// be read there.
        private mutating func readValue(options: JSONParseOptions, delimitingContainers: Bool, namesRead: Bool) -> JSONValue?? {
            skipWhitespace()
            guard position < end else { return nil }
            let start = position
            let quick: JSONValue?
            switch base[position] {
            case UInt8(ascii: "\""): quick = readString().map(JSONValue.string)
            case UInt8(ascii: "n"): quick = matchLiteral(Packed.null, count: 4) ? .null : nil
            case UInt8(ascii: "t"): quick = matchLiteral(Packed.true, count: 4) ? .bool(true) : nil
            case UInt8(ascii: "f"): quick = matchLiteral(Packed.false, count: 5) ? .bool(false) : nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if delimitingContainers {
                    guard let bytes = (namesRead ? lastValue() : nil) ?? skipContainer() else { return nil }
                    rawValue = bytes
                    return .some(nil)
                }
                quick = nil
            default: quick = readInteger().map(JSONValue.integer)
            }
            if let quick { return quick }
            do {
                let read = try JSONParser.parseMember(
                    in: UnsafeRawBufferPointer(start: base, count: end), at: start, depth: SendFrame.depth, options: options)
                position = read.end
                return read.value
            } catch {
                return nil
            }
        }

        /// The object or array at the cursor taken to be the frame's last value: its bytes up to
        /// the frame's final `}` `}` (whitespace around them allowed), when the frame ends so
        /// and the byte before is a closing bracket; `nil` otherwise.
        ///
        /// A guess, checked later: the reader that takes ``rawValue`` (the input's, or
        /// ``parseRawValue(options:)``) must read all of it as one value, which is then the
        /// value (a JSON value's extent is fixed by its first byte's), and the `}` `}` after it
        /// close params and the envelope, read as usual from the cursor left before them. If
        /// the guess was wrong (another member follows the value), neither reads all of it
        /// and the general path reads the frame.
        private mutating func lastValue() -> UnsafeBufferPointer<UInt8>? {
            var index = end
            func skipBack() { while index > position, [0x20, 0x09, 0x0A, 0x0D].contains(base[index - 1]) { index -= 1 } }
            for _ in 0..<2 {
                skipBack()
                guard index > position, base[index - 1] == UInt8(ascii: "}") else { return nil }
                index -= 1
            }
            skipBack()
            guard index > position + 1, base[index - 1] | 0x20 == UInt8(ascii: "}") else { return nil }
            let start = position
            position = index
            return UnsafeBufferPointer(start: base + start, count: index - start)
        }

        /// The bytes of the object or array at the cursor, to its matching closing bracket
        /// (brackets inside strings not counted); `nil` if the frame ends first. Checks nothing
        /// else: whoever reads the bytes does.
        private mutating func skipContainer() -> UnsafeBufferPointer<UInt8>? {
            let start = position
            var nesting = 0
            while position < end {
                switch base[position] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return nil }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    nesting -= 1
                    if nesting == 0 {
                        position += 1
                        return UnsafeBufferPointer(start: base + start, count: position - start)
                    }
                default:
                    break
                }
                position += 1
            }
            return nil
        }

        /// Steps over the string at the cursor (a `"`) to just after its closing quote, a
        /// backslash taking the byte after it; `false` if the frame ends first. Byte by byte:
        /// it runs only for a container value with members after it in the frame (in the usual
        /// order the value runs to the frame's closing `}}`, see `lastValue()`).
        private mutating func skipString() -> Bool {
            var index = position + 1
            while index < end {
                switch base[index] {
                case UInt8(ascii: "\""):
                    position = index + 1
                    return true
                case UInt8(ascii: "\\"):
                    index += 2
                default:
                    index += 1
                }
            }
            return false
        }

        /// `-?(0|[1-9][0-9]{0,17})` not followed by `.`, `e` or `E`, and not `-0`: a number the
        /// general parser reads as this same `Int64`.
        private mutating func readInteger() -> Int64? {
            var negative = false
            if base[position] == UInt8(ascii: "-") {
                negative = true
                position += 1
            }
            let start = position
            var magnitude: Int64 = 0
            while position < end {
                let digit = base[position] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ Int64(digit)
                position += 1
            }
            let count = position - start
            guard count > 0, count <= 18 else { return nil }
            if base[start] == UInt8(ascii: "0"), count > 1 || negative { return nil }
            if position < end {
                let next = base[position]
                if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
            }
            return negative ? -magnitude : magnitude
        }

        /// A string without escapes, checked as UTF-8.
        private mutating func readString() -> String? {
            readStringBytes().flatMap { String(validating: $0, as: UTF8.self) }
        }

        /// The bytes of a string without escapes (not checked as UTF-8).
        @inline(__always)
        private mutating func readStringBytes() -> UnsafeBufferPointer<UInt8>? {
            skipWhitespace()
            guard let (start, count, _) = readPlainBytes() else { return nil }
            return UnsafeBufferPointer(start: base + start, count: count)
        }

        /// Whether the next token is the string whose bytes pack to `word` (see ``packed(_:_:)``).
        @inline(__always)
        private mutating func matchString(_ word: UInt64) -> Bool {
            skipWhitespace()
            // One load for a string of at most 7 bytes (the version, the method): its bytes and
            // closing quote compared at once; anything else is read below.
            let count = UInt64(8 &- word.leadingZeroBitCount / 8)
            if count < 8, end - position >= 9, base[position] == UInt8(ascii: "\"") {
                let next = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: position + 1, as: UInt64.self))
                if next & Self.mask(count + 1) == Self.quoted(word, count) {
                    position += Int(count) + 2
                    return true
                }
            }
            guard let (_, count, packed) = readPlainBytes() else { return false }
            return count <= 8 && packed == word
        }

        /// The bytes between a `"` at the cursor and the next `"`, and the first eight of them
        /// packed (see `packed(_:_:)`; meaningful when `count <= 8`); `nil` if the string has an
        /// escape or a control character, or is not closed.
        ///
        /// Eight bytes per step: with `x = word ^ pattern` the bytes equal to the pattern's are
        /// zero, and `(x - 0x0101…) & ~x & 0x8080…` marks every zero byte; `(word - 0x2020…) &
        /// ~word & 0x8080…` marks every byte below 0x20. A borrow can add marks above the first
        /// true one, never below it, so the lowest mark of all three is the first special byte.
        @inline(__always)
        private mutating func readPlainBytes() -> (start: Int, count: Int, packed: UInt64)? {
            guard position < end, base[position] == UInt8(ascii: "\"") else { return nil }
            let start = position + 1
            var index = start
            var first: UInt64? = nil
            let raw = UnsafeRawPointer(base)
            while end - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if first == nil { first = word }
                let quotes = word ^ 0x2222_2222_2222_2222, backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let marks = ((quotes &- 0x0101_0101_0101_0101) & ~quotes
                    | (backslashes &- 0x0101_0101_0101_0101) & ~backslashes
                    | (word &- 0x2020_2020_2020_2020) & ~word) & 0x8080_8080_8080_8080
                if marks != 0 {
                    index += marks.trailingZeroBitCount / 8
                    break
                }
                index += 8
            }
            while index < end {
                let byte = base[index]
                if byte == UInt8(ascii: "\"") {
                    position = index + 1
                    let count = index - start
                    guard let first else { return (start, count, packed(start, min(count, 8))) }
                    return (start, count, count >= 8 ? first : first & ((1 << (8 * UInt64(count))) &- 1))
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        private mutating func matchLiteral(_ word: UInt64, count: Int) -> Bool {
            guard end - position >= count, packed(position, count) == word else { return false }
            position += count
            return true
        }

        /// The `count` (at most 8) bytes at `start` as one little-endian word (byte `i` in bits
        /// `8i..<8i+8`). Strings the reader accepts hold no NUL, so equal words mean
        /// equal strings whatever their lengths.
        @inline(__always)
        private func packed(_ start: Int, _ count: Int) -> UInt64 {
            var word: UInt64 = 0
            for offset in 0..<count { word |= UInt64(base[start + offset]) << (8 * offset) }
            return word
        }

        /// Skips whitespace, then takes `byte` if it is next.
        @inline(__always)
        private mutating func consume(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard position < end, base[position] == byte else { return false }
            position += 1
            return true
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            // Compact JSON has none: one compare settles every byte above the space (no
            // whitespace byte is), before the four-way test.
            guard position < end, base[position] <= 0x20 else { return }
            while position < end {
                switch base[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
    }
}
