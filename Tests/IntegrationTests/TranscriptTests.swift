import JSONCore
import Testing
import VMTestSupport

/// Replays the example session of Protocol/PROTOCOL.md §15 line by line, over each transport:
/// every `>` line is sent, then exactly the `<` lines that follow it are read and compared as
/// JSON. Only daemon.info's per-process values are masked (see ``ProtocolTranscript/masked(_:)``).
@Suite("The PROTOCOL.md example session")
struct TranscriptTests {
    @Test("the transcript is long enough to mean something")
    func transcriptSize() throws {
        let transcript = try ProtocolTranscript.load()
        #expect(transcript.exchanges.count >= 20)
        #expect(transcript.exchanges.reduce(0) { $0 + $1.expected.count } >= 35)
    }

    @Test("every reply and notification of the example session arrives, in order, as written", arguments: RPCTransport.allCases)
    func exampleSession(over transport: RPCTransport) async throws {
        let transcript = try ProtocolTranscript.load()
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        // The socket daemon's readiness probe may not be reaped yet; the session reports
        // "connections": 1, so wait (bounded) until this is the only one.
        #expect(try await Waiting.asyncUntil { try await session.result("daemon.info")["connections"] == 1 })
        for exchange in transcript.exchanges {
            try await session.send(exchange.sent)
            for expected in exchange.expected {
                let received: JSONValue
                do {
                    received = try await session.nextMessage()
                } catch {
                    Issue.record("after \(exchange.sent), waiting for \(expected): \(error)")
                    return
                }
                #expect(ProtocolTranscript.masked(received) == ProtocolTranscript.masked(expected), "after \(exchange.sent)")
            }
        }
        // Nothing more came before this reply.
        _ = try await session.result("daemon.info")
        #expect(session.takeQueued().isEmpty)
        session.close()
        // login-1 (scope connection) goes with the connection.
        let next = try await vmd.connect()
        defer { next.close() }
        // A closed socket reaches the daemon a moment after the client closes it.
        #expect(try await Waiting.asyncUntil { try await next.result("vm.list") == ["instances": []] })
    }
}
