import Posix
import ReactiveTesting
import VMProtocol
import VMServer
import ViewModelCatalog
import ViewModelKit

/// vmd's transport-free `Server` inside the test process, hosting the catalog (or the test's
/// own registry) on a ``TestScheduler``, as an ``RPCEndpoint``: what ``RPCTransport/inMemory``
/// starts, and what the server's unit tests drive on a ``Clock/manual`` clock.
///
/// `daemon.info` reports fixed values (version `0.1.0-test`, pid 4242, socket
/// ``socketPath``); every connection's peer is the daemon's own user unless
/// ``open(uid:)`` says otherwise.
package final class InMemoryServer: RPCEndpoint {
    /// The uid the server admits to its same-user-only methods.
    package static let daemonUID: UInt32 = 1000

    /// Who moves virtual time.
    package enum Clock: Sendable {
        /// A read that finds nothing moves time on until something arrives (see ``InMemoryChannel``):
        /// tests written for both transports.
        case automatic
        /// Only the test moves time (`scheduler.advance…`); a read that finds nothing fails at
        /// once: unit tests of the server's timing.
        case manual
    }

    package let scheduler: TestScheduler
    package let host: ViewModelHost
    package let server: Server
    /// Holds the catalog's state directory (none for a registry of the test's own).
    package let directory: TemporarySocketDirectory?
    /// How many times a client asked the server to stop (`daemon.shutdown`).
    package var shutdownRequests: Int { recorder.shutdownRequests }
    /// What the server logged, oldest first.
    package var events: [ServerLogEvent] { recorder.events }
    package let clock: Clock
    /// The socket path `daemon.info` reports (nothing listens there).
    package let socketPath = "/tmp/vmd-in-memory.sock"
    private var lastConnection: UInt64 = 0

    package var transport: RPCTransport { .inMemory }

    /// A server for `registry` (the catalog, with its state in a temporary directory, by
    /// default) with `limits`.
    package init(
        registry: ViewModelRegistry? = nil, limits: VMLimits = VMLimits(), slowClient: SlowClientMode = .coalesce,
        clock: Clock = .automatic
    ) throws {
        var directory: TemporarySocketDirectory?
        let chosen: ViewModelRegistry
        if let registry {
            chosen = registry
        } else {
            let made = try TemporarySocketDirectory()
            directory = made
            do {
                chosen = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: made.file("state")))
            } catch {
                made.remove()
                throw error
            }
        }
        let scheduler = TestScheduler()
        let host = ViewModelHost(registry: chosen, scheduler: scheduler)
        let identity = ServerIdentity(
            version: "0.1.0-test", bootId: "0123456789abcdef0123456789abcdef", pid: 4242,
            startedAt: scheduler.now, socketPath: socketPath, slowClient: slowClient, uid: Self.daemonUID)
        let recorder = Recorder()
        self.clock = clock
        self.directory = directory
        self.scheduler = scheduler
        self.host = host
        self.server = Server(host: host, scheduler: scheduler, limits: limits, identity: identity,
                             log: { recorder.events.append($0) }, requestShutdown: { recorder.shutdownRequests += 1 })
        self.recorder = recorder
        self.limits = limits
    }

    private let limits: VMLimits

    private let recorder: Recorder

    package func connect() async throws -> RPCSession {
        open()
    }

    /// Opens a connection from a peer with `uid` (the daemon's own by default), without the
    /// `async` of ``connect()``.
    package func open(uid: UInt32 = daemonUID) -> RPCSession {
        lastConnection += 1
        let channel = InMemoryChannel(
            server: server, scheduler: scheduler, clock: clock, id: ConnectionID(lastConnection),
            peer: PeerIdentity(pid: 100, uid: uid, gid: uid))
        channel.sink.capacity = limits.maxOutboundBytes
        return RPCSession(channel: channel, transport: .inMemory)
    }

    /// Tells the server the daemon stops (subscribers hear `vm.closed` with `shutdown`) and
    /// removes the state directory.
    package func stop() {
        server.shutdown()
        directory?.remove(["state/sendlist-uploads.ndjson", "state"])
    }

    /// What the server's callbacks report, kept for the test.
    private final class Recorder {
        var events: [ServerLogEvent] = []
        var shutdownRequests = 0
    }
}
