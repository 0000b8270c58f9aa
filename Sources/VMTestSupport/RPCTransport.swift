/// The two ways a test reaches vmd's server. Tests that hold for both take it as an argument,
/// `@Test(arguments: RPCTransport.allCases)`.
package enum RPCTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The transport-free `Server` in the test process, on virtual time, with the catalog's types
    /// (``InMemoryServer``).
    case inMemory
    /// The built `vmd` as a child process on a real Unix socket (``SocketDaemon``).
    case socket

    package var description: String {
        switch self {
        case .inMemory: "in memory"
        case .socket: "over a socket"
        }
    }

    /// Starts a server with the catalog in a fresh temporary directory. `arguments` are vmd's
    /// command-line arguments; the in-memory server understands none and refuses any.
    package func start(arguments: [String] = []) async throws -> any RPCEndpoint {
        switch self {
        case .inMemory:
            guard arguments.isEmpty else {
                throw RPCSessionError.unsupported("the in-memory server takes no daemon arguments: \(arguments)")
            }
            return try InMemoryServer()
        case .socket:
            return try await SocketDaemon.start(arguments: arguments)
        }
    }
}
