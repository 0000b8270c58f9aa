import JSONCore

/// `vm.create {type, id?, args?, scope?, subscribe?, durable?, record?}` →
/// `{instance, type, scope, subscription?, durable?}`.
public enum VMCreateMethod: VMMethod {
    public static let name = "vm.create"

    public struct Params: Sendable, Hashable {
        /// The type to instantiate.
        public var type: String
        /// The client's id for the instance; `nil` to have one generated.
        public var id: String?
        /// Creation arguments; `nil` means `{}`.
        public var args: JSONValue?
        /// The instance's lifetime (default ``InstanceScope/daemon``).
        public var scope: InstanceScope
        /// When present, a subscription opened atomically with the creation.
        public var subscribe: SubscribeOptions?
        /// Whether the instance survives the daemon's end (daemon scope only).
        public var durable: Bool
        /// Whether the daemon records the instance from its creation (`vm.tape` reads it).
        public var record: Bool

        public init(
            type: String, id: String? = nil, args: JSONValue? = nil, scope: InstanceScope = .daemon, subscribe: SubscribeOptions? = nil,
            durable: Bool = false, record: Bool = false
        ) {
            self.type = type
            self.id = id
            self.args = args
            self.scope = scope
            self.subscribe = subscribe
            self.durable = durable
            self.record = record
        }

        package init(_ params: JSONValue?) throws(WireError) {
            // The common call, `{"type": "<name>"}` alone: nothing else to check, so the
            // member walk below is skipped.
            if case .object(let object)? = params, object.count == 1, case .string(let name)? = object["type"], !name.isEmpty {
                self = Params(type: name)
                return
            }
            // One pass over the members instead of a lookup by name per param (and one for
            // unknown names); each value is then checked in the order the lookups checked them.
            let reader = try ParamsReader(params)
            var typeValue, idValue, argsValue, scopeValue, subscribeValue, durableValue, recordValue: JSONValue?
            try reader.readMembers(allowed: ["type", "id", "args", "scope", "subscribe", "durable", "record"], method: VMCreateMethod.name) {
                position, value in
                switch position {
                case 0: typeValue = value
                case 1: idValue = value
                case 2: argsValue = value
                case 3: scopeValue = value
                case 4: subscribeValue = value
                case 5: durableValue = value
                default: recordValue = value
                }
            }
            type = try ParamsReader.requiredString(typeValue, key: "type", nonEmpty: true)
            id = try ParamsReader.optionalString(idValue, key: "id")
            if let id, !VMCreateMethod.isValidInstanceID(id) {
                throw WireError.invalidParams(
                    path: "/id", expected: "string matching \(VMCreateMethod.instanceIDPattern)", got: "string",
                    detail: "an instance id must be 1 to 64 letters, digits, '.', '_', ':' or '-', not \(quoted(id)); or omit id")
            }
            args = try ParamsReader.optionalObject(argsValue, key: "args").map(JSONValue.object)
            if let scopeName = try ParamsReader.optionalString(scopeValue, key: "scope") {
                guard let parsed = InstanceScope(rawValue: scopeName) else {
                    throw WireError.invalidParams(
                        path: "/scope", expected: "\"daemon\" or \"connection\"", got: quoted(scopeName),
                        detail: "scope must be \"daemon\" or \"connection\", not \(quoted(scopeName))")
                }
                scope = parsed
            } else {
                scope = .daemon
            }
            subscribe = try ParamsReader.optionalObject(subscribeValue, key: "subscribe").map { object throws(WireError) in
                try SubscribeOptions(createMember: object)
            }
            switch durableValue {
            case nil: durable = false
            case .bool(let flag)?: durable = flag
            case let other?: throw WireError.invalidParams(path: "/durable", expected: "boolean", got: other.typeName)
            }
            if durable, scope != .daemon {
                throw WireError.invalidParams(
                    path: "/durable", expected: "false with scope \"connection\"", got: "true",
                    detail: "only daemon-scoped instances can be durable: a connection-scoped instance ends with its connection; "
                        + "drop scope or durable")
            }
            switch recordValue {
            case nil: record = false
            case .bool(let flag)?: record = flag
            case let other?: throw ParamsReader.mismatch("record", expected: "boolean", got: other.typeName)
            }
        }

        /// The params object (a client's side): `type`, then what differs from the defaults
        /// (`scope` only when not ``InstanceScope/daemon``).
        public var jsonValue: JSONValue {
            var object: JSONObject = ["type": .string(type)]
            if let id { object["id"] = .string(id) }
            if let args { object["args"] = args }
            if scope != .daemon { object["scope"] = .string(scope.rawValue) }
            if let subscribe {
                var options = JSONObject()
                subscribe.appendMembers(to: &options)
                object["subscribe"] = .object(options)
            }
            if durable { object["durable"] = true }
            if record { object["record"] = true }
            return .object(object)
        }
    }

    /// The pattern a client-chosen instance id must match.
    package static let instanceIDPattern = "^[A-Za-z0-9._:-]{1,64}$"

    /// Whether `id` matches ``instanceIDPattern``.
    package static func isValidInstanceID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: ":"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// `{"instance", "type", "scope", "subscription"?, "durable"?}`: the new instance, the
    /// subscription opened with it when params asked for one, and `durable: true` when it is.
    public struct Result: Sendable, Hashable {
        /// The instance id (the one asked for, or a generated one such as `"counter-1"`).
        public var instance: String
        public var type: String
        public var scope: InstanceScope
        public var subscription: String?
        public var durable: Bool

        @inlinable
        package init(instance: String, type: String, scope: InstanceScope, subscription: String? = nil, durable: Bool = false) {
            self.instance = instance
            self.type = type
            self.scope = scope
            self.subscription = subscription
            self.durable = durable
        }

        /// Reads the result (a client's side).
        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            instance = try members.decode("instance")
            type = try members.decode("type")
            scope = try members.decodeCase("scope")
            subscription = try members.decode("subscription")
            durable = try members.decode("durable", default: false)
        }

        public var jsonValue: JSONValue {
            var object: JSONObject = ["instance": .string(instance), "type": .string(type), "scope": .string(scope.rawValue)]
            if let subscription { object["subscription"] = .string(subscription) }
            if durable { object["durable"] = true }
            return .object(object)
        }

        /// Writes the members of ``jsonValue``, in its order, without building it: the server
        /// answers `vm.create` straight into the connection's buffer.
        package func appendMembers(to writer: inout JSONObjectWriter) {
            writer.key(ascii: "instance")
            var instance = instance, type = type
            let written = instance.withUTF8 { instanceBytes in
                type.withUTF8 { typeBytes in
                    Self.appendPlain(instance: instanceBytes, type: typeBytes, scope: scope, to: &writer.buffer)
                }
            }
            if !written {
                JSONSerializer.appendString(instance, to: &writer.buffer)
                writer.member(ascii: "type", string: type)
                writer.member(ascii: "scope", string: scope.rawValue)
            }
            if let subscription { writer.member(ascii: "subscription", string: subscription) }
            if durable { writer.member("durable", bool: true) }
        }

        /// The length of ``jsonValue``'s text when no string in it needs escaping (generated ids,
        /// the ids ``isValidInstanceID(_:)`` admits, type names and subscription ids always
        /// qualify), for ``writePlainText(to:)``; `nil` otherwise.
        package var plainTextByteCount: Int? {
            guard let instanceCount = Self.plainByteCount(instance), let typeCount = Self.plainByteCount(type) else { return nil }
            var count = Self.instanceKey.utf8CodeUnitCount + instanceCount + Self.typeKey.utf8CodeUnitCount + typeCount
                + Self.scopeText(scope).utf8CodeUnitCount + 1
            if let subscription {
                guard let subscriptionCount = Self.plainByteCount(subscription) else { return nil }
                count += Self.subscriptionKey.utf8CodeUnitCount + subscriptionCount + 1
            }
            if durable { count += Self.durableMember.utf8CodeUnitCount }
            return count
        }

        /// `text`'s UTF-8 length when JSON writes it as it is between quotes; `nil` otherwise.
        private static func plainByteCount(_ text: String) -> Int? {
            // Native strings, small ones included, are contiguous UTF-8; any other is left to the
            // writer that escapes.
            text.utf8.withContiguousStorageIfAvailable { JSONByteWriter.writesVerbatim($0) ? $0.count : nil } ?? nil
        }

        /// Writes ``jsonValue``'s text, the bytes ``appendMembers(to:)`` writes inside its braces,
        /// straight into memory the caller sized with ``plainTextByteCount`` (a transport's own
        /// buffer, for the server's reply); returns the position just past it. Only for a
        /// result whose ``plainTextByteCount`` is not `nil`.
        package func writePlainText(to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            var cursor = JSONByteWriter.copy(Self.instanceKey, to: cursor)
            cursor = Self.copy(instance, to: cursor)
            cursor = JSONByteWriter.copy(Self.typeKey, to: cursor)
            cursor = Self.copy(type, to: cursor)
            cursor = JSONByteWriter.copy(Self.scopeText(scope), to: cursor)
            if let subscription {
                cursor = JSONByteWriter.copy(Self.subscriptionKey, to: cursor)
                cursor = Self.copy(subscription, to: cursor)
                cursor.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
                cursor += 1
            }
            if durable { cursor = JSONByteWriter.copy(Self.durableMember, to: cursor) }
            cursor.storeBytes(of: UInt8(ascii: "}"), as: UInt8.self)
            return cursor + 1
        }

        private static let instanceKey: StaticString = #"{"instance":""#
        private static let typeKey: StaticString = #"","type":""#
        private static let subscriptionKey: StaticString = #","subscription":""#
        private static let durableMember: StaticString = #","durable":true"#

        /// The scope member with the quote that closes the type before it.
        private static func scopeText(_ scope: InstanceScope) -> StaticString {
            scope == .daemon ? #"","scope":"daemon""# : #"","scope":"connection""#
        }

        /// Copies `text`'s UTF-8 bytes to `cursor`.
        private static func copy(_ text: String, to cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            var text = text
            return text.withUTF8 { bytes in
                guard let start = bytes.baseAddress else { return cursor }
                cursor.copyMemory(from: start, byteCount: bytes.count)
                return cursor + bytes.count
            }
        }

        /// Writes `"<instance>","type":"<type>","scope":"<scope>"` with one reservation and
        /// no escape scan per byte, when neither string needs escaping (generated ids, the ids
        /// ``isValidInstanceID(_:)`` admits and type names always qualify); `false` otherwise,
        /// having written nothing. The same bytes as ``JSONObjectWriter/member(ascii:string:)``
        /// per member, without the escape scan on every `vm.create` reply.
        private static func appendPlain(
            instance: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>, scope: InstanceScope,
            to buffer: inout [UInt8]
        ) -> Bool {
            guard JSONByteWriter.writesVerbatim(instance), JSONByteWriter.writesVerbatim(type) else { return false }
            let scopeText = scopeText(scope)
            buffer.reserveCapacity(buffer.count + instance.count + type.count + typeKey.utf8CodeUnitCount
                + scopeText.utf8CodeUnitCount + 2)
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: instance)
            buffer.append(contentsOf: UnsafeBufferPointer(start: typeKey.utf8Start, count: typeKey.utf8CodeUnitCount))
            buffer.append(contentsOf: type)
            buffer.append(contentsOf: UnsafeBufferPointer(start: scopeText.utf8Start, count: scopeText.utf8CodeUnitCount))
            return true
        }
    }

    /// `{"instance", "type", "scope", "subscription"?}`.
    package static func result(instance: String, type: String, scope: InstanceScope, subscription: String?) -> JSONValue {
        Result(instance: instance, type: type, scope: scope, subscription: subscription).jsonValue
    }
}
