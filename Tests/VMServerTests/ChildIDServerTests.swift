import JSONCore
import ReactiveCore
import Testing
import VMServer
import VMTestSupport
import ViewModelKit

/// A lobby opening the lamp of the room its args name under the id `room-<name>`, so that
/// clients address it without asking the lobby; `opened` says what `createChild` answered.
struct Lobby: ViewModel {
    static let summary = "Opens a named room's lamp, for the child id tests."

    struct Arguments: JSONConvertible {
        var room: String
        init(json: JSONValue) throws(JSONDecodingError) { room = try JSONObjectDecoder(json).decode("room", default: "") }
        var jsonValue: JSONValue { ["room": .string(room)] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["room": ["type": "string", "default": ""]]) }
    }

    struct Ports: ViewModelPorts {
        let opened = State<String>("The lamp's id, or the name of the error that refused it.", initial: "")
    }

    init(ports: Ports, context: Context) {
        do {
            ports.opened.accept(try context.createChild(Lamp.self, id: "room-" + context.args.room).id)
        } catch {
            ports.opened.accept(error.name + ": " + error.message)
        }
    }
}

@Suite("A view model names its children")
struct ChildIDServerTests {
    private func lobbyServer() throws -> InMemoryServer {
        var registry = try roomRegistry()
        try registry.register(Lobby.self)
        return try InMemoryServer.forTests(registry: registry)
    }

    @Test("a child created with an id is listed and driven under that id")
    func childHasTheGivenID() async throws {
        let fixture = try lobbyServer()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Lobby","id":"lobby","args":{"room":"general"}}"#))
        #expect(try await client.result("vm.get", json(#"{"instance":"lobby","output":"opened"}"#))["value"] == "room-general")
        #expect(try await client.result("vm.list")["instances"] == json(#"""
            [{"instance":"lobby","type":"Lobby","scope":"daemon","subscribers":0},
             {"instance":"room-general","type":"Lamp","scope":"daemon","subscribers":0,"parent":"lobby"}]
            """#))
        _ = try await client.result("vm.send", json(#"{"instance":"room-general","input":"toggle"}"#))
        #expect(try await client.result("vm.get", json(#"{"instance":"room-general","output":"isOn"}"#))["value"] == true)
    }

    @Test("an id in use is refused with instanceExists, and one vm.create would refuse with invalidValue")
    func takenAndInvalidIDsAreRefused() async throws {
        let fixture = try lobbyServer()
        let client = fixture.open()
        _ = try await client.result("vm.create", json(#"{"type":"Lobby","id":"first","args":{"room":"general"}}"#))
        _ = try await client.result("vm.create", json(#"{"type":"Lobby","id":"second","args":{"room":"general"}}"#))
        let taken = try await client.result("vm.get", json(#"{"instance":"second","output":"opened"}"#))["value"]
        #expect(taken?.stringValue?.hasPrefix("instanceExists: ") == true, "\(String(describing: taken))")
        _ = try await client.result("vm.create", json(#"{"type":"Lobby","id":"third","args":{"room":"a b"}}"#))
        let invalid = try await client.result("vm.get", json(#"{"instance":"third","output":"opened"}"#))["value"]?.stringValue ?? ""
        #expect(invalid.hasPrefix("invalidValue: Invalid id for a child Lamp: expected string matching ^[A-Za-z0-9._:-]{1,64}$"), "\(invalid)")
        #expect(try await client.result("vm.list")["instances"]?.arrayValue?.count == 4, "first, room-general, second, third")
    }
}
