import JSONCore

/// One connection to vmd's server, reduced to what every transport can do: write a frame,
/// read the next message, hang up. ``RPCSession`` builds requests, replies and notifications
/// on top of it, once for every transport.
///
/// The two implementations are ``InMemoryChannel`` (the transport-free `Server` driven through
/// `ConnectionHandler` on virtual time) and ``SocketChannel`` (the real `vmd` on its Unix
/// socket).
package protocol RPCChannel: AnyObject {
    /// Writes `frame` (one JSON-RPC message or batch as text, without framing) as it is.
    func send(_ frame: String) async throws

    /// The next message the server wrote, waiting at most `timeout`.
    /// - Throws: ``RPCSessionError/timedOut(_:)`` when nothing arrives in time,
    ///   ``RPCSessionError/closed(_:)`` when the server closed the connection.
    func receive(timeout: Duration) async throws -> JSONValue

    /// Hangs up; best effort, for `defer`.
    func close()
}
