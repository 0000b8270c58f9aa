import JSONCore
import Testing
import VMProtocol
@testable import VMServer
import VMTestSupport

/// The server remembers the session of the last frame (Server.swift, `frameReceived`); a
/// `session.resume` replaces the connection's session, so the next frame must reach the
/// resumed one.
@Suite("Frames after session.resume reach the resumed session")
struct ResumedConnectionRoutingTests {
    @Test("after a resume, the connection's next calls act on the resumed session's subscriptions")
    func nextFrameAfterResume() async throws {
        let fixture = try InMemoryServer.forTests()
        let first = fixture.open()
        let token = try await first.result("session.open")["token"]?.stringValue ?? ""
        _ = try await first.result("vm.create", json(#"{"type":"Tally","id":"t","scope":"connection"}"#))
        let subscription = try await first.result("vm.subscribe", json(#"{"instance":"t","replay":false}"#))["subscription"]
        fixture.server.connectionClosed(first.id)

        let second = fixture.open()
        let resumed = try await second.result("session.resume", ["token": .string(token)])
        #expect(resumed["subscriptions"] == .array([subscription ?? .null]))
        // The very next frame on this connection: the resumed session owns the subscription.
        let ended = try await second.result("vm.unsubscribe", ["subscription": subscription ?? .null])
        #expect(ended == json(#"{"unsubscribed":true}"#))
    }
}
