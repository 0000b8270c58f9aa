import JSONCore

/// One view-model type as `vm.types` describes it. Every schema is JSON Schema 2020-12;
/// `{"type": "null"}` means "takes no value".
public struct VMTypeDescription: Sendable, Hashable {
    /// An input a client pushes with `vm.send`.
    public struct Input: Sendable, Hashable {
        public var name: String
        public var summary: String
        public var schema: JSONValue
    }

    /// An output a client reads (`vm.get`, state only) or watches (`vm.subscribe`).
    public struct Output: Sendable, Hashable {
        public var name: String
        public var summary: String
        /// `"state"` (has a current value) or `"event"` (never replayed); later kinds are kept.
        public var kind: String
        public var schema: JSONValue
        /// Whether `vm.get` can read it.
        public var isState: Bool { kind == "state" }
    }

    /// An action a client runs with `vm.execute`.
    public struct Action: Sendable, Hashable {
        public var name: String
        public var summary: String
        public var input: JSONValue
        public var output: JSONValue
    }

    public var name: String
    public var summary: String
    /// The schema of `vm.create`'s `args`.
    public var args: JSONValue
    public var inputs: [Input]
    public var outputs: [Output]
    public var actions: [Action]

    /// Reads one element of `vm.types`' `types`.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        name = try members.decode("name")
        summary = try members.decode("summary", default: "")
        args = try members.decode("args", default: JSONValue.object([:]))
        inputs = try Self.each(members, "inputs") { (value) throws(JSONDecodingError) in
            let input = try JSONObjectDecoder(value)
            return Input(name: try input.decode("name"), summary: try input.decode("summary", default: ""),
                         schema: try input.decode("schema", default: JSONValue.object([:])))
        }
        outputs = try Self.each(members, "outputs") { (value) throws(JSONDecodingError) in
            let output = try JSONObjectDecoder(value)
            return Output(name: try output.decode("name"), summary: try output.decode("summary", default: ""),
                          kind: try output.decode("kind"),
                          schema: try output.decode("schema", default: JSONValue.object([:])))
        }
        actions = try Self.each(members, "actions") { (value) throws(JSONDecodingError) in
            let action = try JSONObjectDecoder(value)
            return Action(name: try action.decode("name"), summary: try action.decode("summary", default: ""),
                          input: try action.decode("input", default: JSONValue.object([:])),
                          output: try action.decode("output", default: JSONValue.object([:])))
        }
    }

    /// Reads a `vm.types` result: its `types`, an error naming the element's index.
    public static func decodeTypesResult(_ result: JSONValue) throws(JSONDecodingError) -> [VMTypeDescription] {
        let types: [JSONValue] = try JSONObjectDecoder(result).decode("types")
        var described: [VMTypeDescription] = []
        for (index, element) in types.enumerated() {
            do throws(JSONDecodingError) {
                described.append(try VMTypeDescription(json: element))
            } catch {
                throw error.prefixed(by: .index(index)).prefixed(by: .key("types"))
            }
        }
        return described
    }

    /// Decodes every element of the array member `key` (missing means empty), naming the
    /// index in errors.
    private static func each<T>(
        _ members: JSONObjectDecoder, _ key: String, _ body: (JSONValue) throws(JSONDecodingError) -> T
    ) throws(JSONDecodingError) -> [T] {
        let elements: [JSONValue] = try members.decode(key, default: [])
        var result: [T] = []
        for (index, element) in elements.enumerated() {
            do {
                result.append(try body(element))
            } catch {
                throw error.prefixed(by: .index(index)).prefixed(by: .key(key))
            }
        }
        return result
    }
}
