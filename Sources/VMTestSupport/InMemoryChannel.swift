import JSONCore
import ReactiveTesting
import VMServer

/// An ``RPCChannel`` straight into an ``InMemoryServer``'s `Server`, through its
/// `ConnectionHandler` methods: no socket, no framing, virtual time.
///
/// Frames are handed to `frameReceived` at once. Reading first takes what the server already
/// wrote. When nothing is there, a channel on an ``InMemoryServer/Clock/automatic`` clock moves
/// virtual time on in steps of ``step`` and gives work on other threads (the kit's tasks, which
/// post back through the scheduler's inbox) a moment to arrive, until the real-time `timeout`
/// passes and time has moved at least ``patience`` on: timers (`timeoutMs`, a Login's latency)
/// fire in their virtual order, and a test waits for them no longer than they take to
/// compute. Both bounds must pass because the rounds need the cooperative pool: while tests
/// alongside block its threads (one per core), neither virtual time nor the kit's tasks move,
/// and the real-time bound alone would give up on work that never had a chance to run. On a
/// ``InMemoryServer/Clock/manual`` clock a read reports at once that nothing came; the test
/// moves time itself.
package final class InMemoryChannel: RPCChannel {
    /// How far virtual time moves per round while a read waits.
    package static let step: Duration = .milliseconds(25)
    /// How far virtual time must have moved, besides the real-time `timeout`, before a read
    /// gives up: past every delay the catalog's tests use (a Login's `timeoutMs` 5000).
    package static let patience: Duration = .seconds(60)

    /// The connection's id on the server.
    package let id: ConnectionID
    /// Where the server writes, for tests that play a slow reader or read raw bytes.
    package let sink = InMemorySink()
    private let server: Server
    private let scheduler: TestScheduler
    private let clock: InMemoryServer.Clock
    private var isOpen = true

    init(server: Server, scheduler: TestScheduler, clock: InMemoryServer.Clock, id: ConnectionID, peer: PeerIdentity) {
        self.server = server
        self.scheduler = scheduler
        self.clock = clock
        self.id = id
        server.connectionOpened(id, peer: peer, sink: sink)
    }

    package func send(_ frame: String) async throws {
        guard isOpen, !sink.isClosed else { throw RPCSessionError.closed("the server closed the connection") }
        var bytes = Array(frame.utf8)
        bytes.withUnsafeMutableBytes { server.frameReceived(UnsafeRawBufferPointer($0), on: id) }
    }

    package func receive(timeout: Duration) async throws -> JSONValue {
        let deadline = Deadline(after: timeout)
        let rounds = timeout == .zero ? 0 : Int(Self.patience / Self.step)
        var round = 0
        if clock == .automatic { scheduler.advance() }
        while true {
            if let bytes = sink.next() {
                do {
                    return try JSONValue(parsing: bytes)
                } catch {
                    throw RPCSessionError.malformed("the server wrote invalid JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))")
                }
            }
            if sink.isClosed { throw RPCSessionError.closed("the server closed the connection") }
            if clock == .manual { throw RPCSessionError.timedOut("nothing written (the clock is manual)") }
            if deadline.hasPassed, round >= rounds {
                throw RPCSessionError.timedOut("no message within \(timeout) and \(Self.patience) of virtual time")
            }
            round += 1
            if scheduler.pendingEnqueuedCount == 0 {
                _ = await scheduler.waitForEnqueued(count: 1, timeout: .milliseconds(1))
            }
            scheduler.advance(by: Self.step)
        }
    }

    /// Tells the server the peer went away (as a socket's end of file would).
    package func close() {
        guard isOpen else { return }
        isOpen = false
        server.connectionClosed(id)
    }
}
