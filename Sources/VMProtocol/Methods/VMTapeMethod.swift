import JSONCore

/// `vm.tape {instance}` → `{tape: [...]}`: the tape so far of an instance recorded from its
/// creation (`vm.create {…, record: true}`), one JSON object per line of the file format
/// (Protocol/PROTOCOL.md, "Tapes"), the header first.
public enum VMTapeMethod: VMMethod {
    public static let name = "vm.tape"

    public struct Params: Sendable, Hashable {
        public var instance: String

        public init(instance: String) { self.instance = instance }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(allowed: ["instance"], method: VMTapeMethod.name)
            instance = try reader.string("instance")
        }

        /// The params object (a client's side).
        public var jsonValue: JSONValue { ["instance": .string(instance)] }
    }

    /// `{"tape": [header, event...]}`.
    public struct Result: Sendable, Hashable {
        /// The tape's lines, the header first.
        public var lines: [JSONObject]

        package init(lines: [JSONObject]) { self.lines = lines }

        /// Reads the result (a client's side): a non-empty array of objects.
        public init(json: JSONValue) throws(JSONDecodingError) {
            let tape: JSONValue = try JSONObjectDecoder(json).requiredMember("tape")
            let array = tape.arrayValue ?? []
            var lines: [JSONObject] = []
            for value in array {
                guard let object = value.objectValue else { break }
                lines.append(object)
            }
            guard !lines.isEmpty, lines.count == array.count else {
                throw JSONDecodingError.typeMismatch(expected: "a non-empty array of objects", got: tape)
            }
            self.lines = lines
        }

        package var jsonValue: JSONValue { ["tape": .array(lines.map(JSONValue.object))] }

        /// The tape file's text: one line per object, each ending in a newline.
        public var text: String {
            lines.map { JSONValue.object($0).encodedString() + "\n" }.joined()
        }
    }
}
