import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport

@Suite("A first session")
struct SmokeTests {
    @Test("creates a Tally, sends to it and reads it back")
    func createSendGet() async throws {
        let fixture = try InMemoryServer.forTests()
        let client = fixture.open()
        let created = try await client.result("vm.create", json(#"{"type":"Tally","args":{"start":5}}"#))
        #expect(created == json(#"{"instance":"tally-1","type":"Tally","scope":"daemon"}"#))
        #expect(try await client.result("vm.send", json(#"{"instance":"tally-1","input":"add","value":2}"#)) == .null)
        #expect(try await client.result("vm.get", json(#"{"instance":"tally-1","output":"count"}"#)) == json(#"{"value":7}"#))
    }
}
