import JSONCore
import Posix
import Testing
import VMTransport
import VMTestSupport

/// A peer of a user the daemon does not admit is told why before it is
/// closed (PROTOCOL.md section 12).
@Suite("A peer of another user is refused with a reason", .offTheCooperativePool)
struct PeerRefusalTests {
    @Test("a refused peer reads one permissionDenied error naming its uid, then the connection closes")
    func refusedPeerReadsTheReason() throws {
        let ownUID = CurrentProcess.uid
        // The daemon takes another uid as its own, so this test's uid counts as a stranger's.
        let harness = try ScriptedDaemon { $0.ownUIDOverride = ownUID &+ 1 }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        let reply = try client.readMessage()
        #expect(reply["jsonrpc"] == "2.0")
        #expect(reply["id"] == .null)
        #expect(reply["error"]?["code"] == -31015)
        #expect(reply["error"]?["data"]?["name"] == "permissionDenied")
        #expect(reply["error"]?["data"]?["uid"] == .integer(Int64(ownUID)))
        #expect(reply["error"]?["message"]?.stringValue?.contains("--allow-uid") == true)
        #expect(try client.waitForClose())
        #expect(!harness.events.contains("opened"))
        #expect(harness.daemon.log.contains("connection rejected: peer runs as another user"))
    }

    @Test("a peer admitted by --allow-uid is served as before")
    func allowedPeerIsServed() throws {
        let ownUID = CurrentProcess.uid
        let harness = try ScriptedDaemon {
            $0.ownUIDOverride = ownUID &+ 1
            $0.allowedUIDs = [ownUID]
        }
        defer { harness.stop() }
        let client = try harness.connect()
        defer { client.close() }
        try client.sendLine("[1]")
        #expect(try client.readLine() == "[1]")
    }
}
