import Posix
import ReactiveTesting
import VMProtocol
import VMServer
import ViewModelCatalog
import ViewModelKit

/// vmd's transport-free `Server` inside the test process, hosting the catalog on a
/// ``TestScheduler``, as an ``RPCEndpoint``: what ``RPCTransport/inMemory`` starts.
///
/// `daemon.info` reports fixed values (version `0.1.0-test`, pid 4242, socket
/// ``socketPath``); every connection's peer is the daemon's own user unless
/// ``connect(uid:)`` says otherwise.
public final class InMemoryServer: RPCEndpoint {
    /// The uid the server admits to its same-user-only methods.
    public static let daemonUID: UInt32 = 1000

    public let scheduler: TestScheduler
    public let host: ViewModelHost
    public let server: Server
    /// Holds the catalog's state directory.
    public let directory: TemporarySocketDirectory
    /// How many times a client asked the server to stop (`daemon.shutdown`).
    public var shutdownRequests: Int { shutdownCounter.count }
    /// The socket path `daemon.info` reports (nothing listens there).
    public let socketPath = "/tmp/vmd-in-memory.sock"
    private var lastConnection: UInt64 = 0

    public var transport: RPCTransport { .inMemory }

    /// A server for the catalog with `limits`.
    public init(limits: VMLimits = VMLimits(), slowClient: SlowClientMode = .coalesce) throws {
        let directory = try TemporarySocketDirectory()
        let registry: ViewModelRegistry
        do {
            registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: directory.file("state")))
        } catch {
            directory.remove()
            throw error
        }
        let scheduler = TestScheduler()
        let host = ViewModelHost(registry: registry, scheduler: scheduler)
        let identity = ServerIdentity(
            version: "0.1.0-test", bootId: "0123456789abcdef0123456789abcdef", pid: 4242,
            startedAt: scheduler.now, socketPath: socketPath, slowClient: slowClient, uid: Self.daemonUID)
        let shutdownRequested = ShutdownCounter()
        self.directory = directory
        self.scheduler = scheduler
        self.host = host
        self.server = Server(host: host, scheduler: scheduler, limits: limits, identity: identity,
                             requestShutdown: { shutdownRequested.count += 1 })
        self.shutdownCounter = shutdownRequested
    }

    private let shutdownCounter: ShutdownCounter

    public func connect() async throws -> RPCSession {
        connect(uid: Self.daemonUID)
    }

    /// Opens a connection from a peer with `uid`.
    public func connect(uid: UInt32) -> RPCSession {
        lastConnection += 1
        let channel = InMemoryChannel(
            server: server, scheduler: scheduler, id: ConnectionID(lastConnection),
            peer: PeerIdentity(pid: 100, uid: uid, gid: uid))
        return RPCSession(channel: channel, transport: .inMemory)
    }

    /// Tells the server the daemon stops (subscribers hear `vm.closed` with `shutdown`) and
    /// removes the state directory.
    public func stop() {
        server.shutdown()
        directory.remove(["state/sendlist-uploads.ndjson", "state"])
    }

    /// Counts `daemon.shutdown` requests for the server's callback.
    private final class ShutdownCounter {
        var count = 0
    }
}
