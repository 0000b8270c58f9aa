import JSONCore

/// `vm.get {instance, output}` → `{value}` (state outputs only).
public enum VMGetMethod: VMMethod {
    public static let name = "vm.get"

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var output: String

        public init(instance: String, output: String) {
            self.instance = instance
            self.output = output
        }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance", "output"], method: VMGetMethod.name)
            instance = try reader.string("instance")
            output = try reader.string("output", nonEmpty: true)
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["instance": .string(instance), "output": .string(output)] }
    }

    /// `{"value": value}`: the output's current value.
    public struct Result: Sendable, Hashable {
        public var value: JSONValue

        package init(value: JSONValue) { self.value = value }

        /// Reads the result (a client's side); `value` must be present (it may be `null`).
        public init(json: JSONValue) throws(JSONDecodingError) {
            value = try JSONObjectDecoder(json).requiredMember("value")
        }

        public var jsonValue: JSONValue { ["value": value] }
    }

    /// `{"value": value}`.
    package static func result(value: JSONValue) -> JSONValue { Result(value: value).jsonValue }

    /// `{"value": …}` encoded, the value's text appended by `writeValue`.
    package static func encodedResult<E: Error>(writingValue writeValue: (inout [UInt8]) throws(E) -> Void) throws(E) -> [UInt8] {
        var bytes: [UInt8] = []
        try JSONObjectWriter.append(to: &bytes) { (object: inout JSONObjectWriter) throws(E) in
            object.key(ascii: "value")
            try writeValue(&object.buffer)
        }
        return bytes
    }
}
