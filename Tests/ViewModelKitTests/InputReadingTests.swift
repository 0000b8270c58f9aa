import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

/// Lists of integers through inputs that differ only in their codec.
struct Tallies: ViewModel {
    static let summary = "Keeps the last list sent to each input."

    struct Ports: ViewModelPorts {
        /// `[Int]` is `JSONReadable`: its values are read from their bytes.
        let readable = Input<[Int]>("Any list of integers.")
        /// The same type, publishing a tighter schema: the schema must still be checked.
        let tightened = Input<[Int]>("At most one integer.", codec: ValueCodec<[Int]>.json.withSchema(
            ["type": "array", "items": ["type": "integer"], "maxItems": 1]))
        /// A codec of its own: nothing to read bytes with.
        let custom = Input<[Int]>("Any list, decoded by hand.", codec: ValueCodec(
            schema: ["type": "array", "items": ["type": "integer"]],
            decode: { json throws(JSONDecodingError) in try [Int](json: json) }, encode: { $0.jsonValue }))
        let last = State<[Int]>("The last list any input received.", initial: [])
    }

    init(ports: Ports, context: Context) {
        ports.last.bind(Observable.merge(ports.readable.asObservable(), ports.tightened.asObservable(), ports.custom.asObservable()))
    }
}

@Suite("Inputs read sent values from their bytes only with their type's own schema")
struct InputReadingTests {
    private static func host() throws -> ViewModelHost {
        var registry = ViewModelRegistry()
        try registry.register(Tallies.self)
        return ViewModelHost(registry: registry, scheduler: TestScheduler(), maxInstances: 10)
    }

    /// Sends `text` to `input` through the byte reader; whether it was read and sent.
    private static func sendBytes(_ text: String, to input: String, of instance: ViewModelInstance) throws -> Bool {
        let route = try instance.inputRoute(input)
        return Array(text.utf8).withUnsafeBufferPointer { instance.send(route, reading: $0, depth: 2, maxDepth: 512) }
    }

    @Test("a JSONReadable type's input reads the value itself, which the state then holds")
    func readableInputReads() throws {
        let instance = try Self.host().create(type: "Tallies", args: nil)
        #expect(try Self.sendBytes(" [1, 2, 3] ", to: "readable", of: instance))
        #expect(try instance.currentValue(output: "last") == [1, 2, 3])
    }

    @Test("a value the reader declines sends nothing, leaving it to the general path")
    func declinedValueSendsNothing() throws {
        let instance = try Self.host().create(type: "Tallies", args: nil)
        for text in ["[1.5]", "[1,]", #"["1"]"#, "[1] [2]", "{}"] {
            #expect(try !Self.sendBytes(text, to: "readable", of: instance), "\(text)")
        }
        #expect(try instance.currentValue(output: "last") == [])
    }

    @Test("a codec made with withSchema, or without a reader, never reads bytes: the schema is checked as before")
    func tighterSchemaStillChecked() throws {
        let instance = try Self.host().create(type: "Tallies", args: nil)
        #expect(try !Self.sendBytes("[1, 2]", to: "tightened", of: instance))
        #expect(try !Self.sendBytes("[1]", to: "custom", of: instance))
        #expect(try instance.currentValue(output: "last") == [])
        #expect(kitError { try instance.send(input: "tightened", value: [1, 2]) } != nil)
        try instance.send(input: "tightened", value: [7])
        #expect(try instance.currentValue(output: "last") == [7])
    }

    @Test("a destroyed instance reads nothing (the general path reports it)")
    func destroyedInstanceReadsNothing() throws {
        let host = try Self.host()
        let instance = try host.create(type: "Tallies", args: nil)
        let route = try instance.inputRoute("readable")
        try host.destroy(instance.id)
        #expect(!Array("[1]".utf8).withUnsafeBufferPointer { instance.send(route, reading: $0, depth: 2, maxDepth: 512) })
    }
}
