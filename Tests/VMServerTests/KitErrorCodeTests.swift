import JSONCore
import Testing
import VMProtocol
import VMServer
import ViewModelKit

/// ViewModelError+WireError.swift maps each kit error to its entry of the one error table by
/// an exhaustive switch; the kit also spells each name for its `data`. They must agree.
@Suite("Kit errors reach their wire code through the table")
struct KitErrorCodeTests {
    static let samples: [ViewModelError] = [
        .unknownType(type: "Nope", known: ["Counter"]),
        .unknownInstance(instance: "c9"),
        .unknownInput(type: "Counter", instance: "c1", input: "x", known: ["increment"]),
        .unknownOutput(type: "Counter", instance: "c1", output: "x", known: ["count"]),
        .unknownAction(type: "Counter", instance: "c1", action: "x", known: ["reset"]),
        .invalidValue(.args(type: "Counter"), path: JSONPath([.key("start")]), expected: "integer", got: "string"),
        .actionNotEnabled(instance: "c1", action: "reset"),
        .actionFailed(instance: "c1", action: "reset", message: "no", data: ["why": "because"]),
        .instanceExists(instance: "c1"),
        .notStateOutput(instance: "c1", output: "changed"),
        .limitReached(limit: "maxInstances", value: 10),
    ]

    @Test("each kit error's code is the table entry of the name the kit gives it", arguments: samples)
    func codeMatchesName(error: ViewModelError) {
        #expect(error.wireCode.name == error.name)
        let wire = error.wireError
        #expect(wire.code == error.wireCode)
        #expect(wire.message == error.message)
        #expect(JSONValue.object(wire.data).encodedString() == JSONValue.object(error.data).encodedString())
    }

    @Test("the samples cover every application code the kit can raise")
    func samplesCoverTheKit() {
        #expect(Set(Self.samples.map(\.wireCode)).count == Self.samples.count)
    }
}
