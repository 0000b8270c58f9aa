import Foundation
import JSONCore
import Testing
import VMProtocol
import VMServer
import ViewModelCatalog

/// PROTOCOL.md section 15's example session, replayed against the server with the catalog's
/// Counter and Login on virtual time: every line the daemon writes must be there, in order.
@Suite("The protocol's example session")
struct TranscriptTests {
    /// One client line and the daemon lines that follow it in the transcript.
    struct Exchange {
        let sent: String
        let expected: [JSONValue]
    }

    static func exchanges() throws -> [Exchange] {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/PROTOCOL.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let start = text.range(of: "<!-- transcript:begin -->"), let end = text.range(of: "<!-- transcript:end -->") else {
            throw TranscriptMissing()
        }
        var exchanges: [Exchange] = []
        var sent: String?
        var expected: [JSONValue] = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if line.hasPrefix("> ") {
                if let sent { exchanges.append(Exchange(sent: sent, expected: expected)) }
                sent = String(line.dropFirst(2))
                expected = []
            } else if line.hasPrefix("< ") {
                expected.append(try JSONValue(parsing: String(line.dropFirst(2))))
            }
        }
        if let sent { exchanges.append(Exchange(sent: sent, expected: expected)) }
        return exchanges
    }

    struct TranscriptMissing: Error {}

    /// daemon.info's values that depend on the process are compared by type only.
    static func normalized(_ message: JSONValue) -> JSONValue {
        guard case .object(var object) = message, case .object(var result)? = object["result"], result["bootId"] != nil else {
            return message
        }
        for key in ["version", "bootId", "socket"] { result[key] = result[key].map { _ in "…" } }
        for key in ["pid", "uptimeSeconds"] { result[key] = result[key].map { _ in 0 } }
        object["result"] = .object(result)
        return .object(object)
    }

    @Test("every daemon line of the transcript is written, in order")
    func transcript() async throws {
        let registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: "/nonexistent/vmd-transcript"))
        let fixture = try ServerFixture(registry: registry)
        let client = fixture.connect()
        var expected: [JSONValue] = []
        var actual: [JSONValue] = []
        let exchanges = try Self.exchanges()
        #expect(exchanges.count >= 20)
        #expect(exchanges.reduce(0) { $0 + $1.expected.count } >= 35)
        for exchange in exchanges {
            client.write(exchange.sent)
            expected += exchange.expected
            actual += client.take()
            // What is still missing comes later: move virtual time on and let async services
            // hop back, within a bounded number of rounds.
            var rounds = 0
            while actual.count < expected.count, rounds < 40 {
                fixture.scheduler.advance(by: .milliseconds(25))
                if fixture.scheduler.pendingEnqueuedCount == 0 {
                    _ = await fixture.scheduler.waitForEnqueued(count: 1, timeout: .milliseconds(50))
                }
                fixture.scheduler.advance()
                actual += client.take()
                rounds += 1
            }
            #expect(actual.map(Self.normalized) == expected.map(Self.normalized), "after \(exchange.sent)")
            if actual.count != expected.count { return }
        }
        client.close()
        #expect(fixture.host.instances.isEmpty, "login-1 (scope connection) goes with the connection")
    }
}
