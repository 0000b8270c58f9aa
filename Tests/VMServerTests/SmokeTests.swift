import JSONCore
import Testing
import VMProtocol
import VMServer

@Suite("A first session")
struct SmokeTests {
    @Test("creates a Tally, sends to it and reads it back")
    func createSendGet() throws {
        let fixture = try ServerFixture()
        let client = fixture.connect()
        let created = client.call("vm.create", json(#"{"type":"Tally","args":{"start":5}}"#))
        #expect(created == json(#"{"instance":"tally-1","type":"Tally","scope":"daemon"}"#))
        #expect(client.call("vm.send", json(#"{"instance":"tally-1","input":"add","value":2}"#)) == .null)
        #expect(client.call("vm.get", json(#"{"instance":"tally-1","output":"count"}"#)) == json(#"{"value":7}"#))
    }
}
