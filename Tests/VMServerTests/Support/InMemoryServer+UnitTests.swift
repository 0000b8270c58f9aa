import JSONCore
import Testing
import VMProtocol
import VMServer
import VMTestSupport
import ViewModelKit

extension InMemoryServer {
    /// A server for the test view models (or `registry`) on a manual clock: the test moves
    /// virtual time itself, and a read that finds nothing fails at once.
    static func forTests(
        limits: VMLimits = VMLimits(), slowClient: SlowClientMode = .coalesce, registry: ViewModelRegistry? = nil
    ) throws -> InMemoryServer {
        try InMemoryServer(registry: registry ?? testRegistry(), limits: limits, slowClient: slowClient, clock: .manual)
    }
}

extension RPCSession {
    /// The in-memory connection under this session (every session in these tests has one).
    var memory: InMemoryChannel {
        guard let channel = channel as? InMemoryChannel else {
            preconditionFailure("the server's unit tests open in-memory sessions only")
        }
        return channel
    }

    /// Where the server writes for this connection.
    var sink: InMemorySink { memory.sink }

    /// This connection's id on the server.
    var id: ConnectionID { memory.id }

    /// Takes everything written so far and keeps the notifications of `method`.
    func notifications(_ method: String) async throws -> [JSONValue] {
        try await takeAvailable().filter { $0["method"] == .string(method) }
    }
}

/// Parses test JSON text; a typo in a test fails loudly.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        Issue.record("bad test JSON \(text): \(error)", sourceLocation: sourceLocation)
        return .null
    }
}
