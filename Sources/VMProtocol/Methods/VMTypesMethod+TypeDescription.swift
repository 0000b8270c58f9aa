import JSONCore

extension VMTypesMethod {
    /// One view-model type as `vm.types` describes it (`TypeDescription` in openrpc.json).
    /// Every schema is JSON Schema 2020-12; `{"type": "null"}` means "takes no value".
    ///
    /// The daemon's side is written by the view-model kit (`ViewModelTypeDescription.jsonValue`,
    /// which cannot import this module); ``jsonValue`` here writes the same bytes, and
    /// VMServerTests' TypeDescriptionWireTests checks that the two agree.
    public struct TypeDescription: Sendable, Hashable {
        /// An input a client pushes with `vm.send`.
        public struct Input: Sendable, Hashable {
            public var name: String
            public var summary: String
            public var schema: JSONValue

            package init(name: String, summary: String = "", schema: JSONValue = [:]) {
                self.name = name
                self.summary = summary
                self.schema = schema
            }
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

            package init(name: String, summary: String = "", kind: String, schema: JSONValue = [:]) {
                self.name = name
                self.summary = summary
                self.kind = kind
                self.schema = schema
            }
        }

        /// An action a client runs with `vm.execute`.
        public struct Action: Sendable, Hashable {
            public var name: String
            public var summary: String
            public var input: JSONValue
            public var output: JSONValue

            package init(name: String, summary: String = "", input: JSONValue = [:], output: JSONValue = [:]) {
                self.name = name
                self.summary = summary
                self.input = input
                self.output = output
            }
        }

        public var name: String
        public var summary: String
        /// The schema of `vm.create`'s `args`.
        public var args: JSONValue
        public var inputs: [Input]
        public var outputs: [Output]
        public var actions: [Action]

        package init(
            name: String, summary: String = "", args: JSONValue = [:], inputs: [Input] = [], outputs: [Output] = [],
            actions: [Action] = []
        ) {
            self.name = name
            self.summary = summary
            self.args = args
            self.inputs = inputs
            self.outputs = outputs
            self.actions = actions
        }

        /// Reads one element of `vm.types`' `types` (a client's side).
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

        /// The description object, members in the protocol's order.
        public var jsonValue: JSONValue {
            [
                "name": .string(name),
                "summary": .string(summary),
                "args": args,
                "inputs": .array(inputs.map { ["name": .string($0.name), "summary": .string($0.summary), "schema": $0.schema] }),
                "outputs": .array(outputs.map {
                    ["name": .string($0.name), "summary": .string($0.summary), "kind": .string($0.kind), "schema": $0.schema]
                }),
                "actions": .array(actions.map {
                    ["name": .string($0.name), "summary": .string($0.summary), "input": $0.input, "output": $0.output]
                }),
            ]
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

    /// Reads a `vm.types` result's `types` (a client's side); an error names the element's index.
    public static func decodeResult(_ result: JSONValue) throws(JSONDecodingError) -> [TypeDescription] {
        try JSONObjectDecoder(result).decode("types")
    }
}
