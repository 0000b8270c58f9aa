/// A running server a test connects sessions to: the in-memory ``InMemoryServer`` or the real
/// daemon, ``SocketDaemon``. Start one with ``RPCTransport/start(arguments:)``.
package protocol RPCEndpoint: AnyObject {
    /// How sessions reach it.
    var transport: RPCTransport { get }

    /// Opens one more connection (a new peer, as far as the server can tell).
    func connect() async throws -> RPCSession

    /// Stops the server and removes its files; call once, from `defer`.
    func stop()
}
