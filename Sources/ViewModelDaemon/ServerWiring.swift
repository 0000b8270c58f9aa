import Posix
import VMTransport
import VMProtocol
import VMServer
import ViewModelKit

/// Builds what the daemon serves: the registry's view models in a host on the loop's
/// scheduler, behind VMServer's JSON-RPC dispatch.
enum ServerWiring {
    /// The handler, its durable instances (kept in `stateDirectory`) restored before it
    /// answers anything.
    static func makeHandler(registry: ViewModelRegistry, context: DaemonContext, stateDirectory: String) throws -> any ConnectionHandler {
        let configuration = context.configuration
        let limits = configuration.limits
        let host = ViewModelHost(registry: registry, scheduler: context.scheduler, maxInstances: limits.maxInstances)
        let identity = ServerIdentity(
            version: configuration.version, bootId: newBootId(), pid: Int64(CurrentProcess.pid),
            startedAt: context.scheduler.now, socketPath: context.socketPath,
            slowClient: configuration.slowClient, uid: CurrentProcess.uid)
        let log = context.log
        let store = openStore(in: stateDirectory, context: context)
        let server = Server(
            host: host, scheduler: context.scheduler,
            limits: limits,
            identity: identity,
            log: { event in log.log(level(of: event), event.description) },
            requestShutdown: { context.requestShutdown() },
            store: store, recordsEveryInstance: configuration.recordsEveryInstance)
        if let store {
            let restored = server.restoreDurableInstances()
            store.drain()
            if restored > 0 || !store.restorable().isEmpty {
                log.info("durable instances restored", ["restored": LogValue(restored), "file": .string(store.path)])
            }
        }
        return server
    }

    /// The durable-instance store in `directory`, committing before every write and at the
    /// end of each turn that saved something; `nil` (logged) when it cannot be opened: the
    /// daemon then serves without durable instances rather than not at all.
    private static func openStore(in directory: String, context: DaemonContext) -> DurableInstanceStore? {
        let store: DurableInstanceStore
        do {
            store = try DurableInstanceStore(directory: directory, log: context.log)
        } catch {
            context.log.error("durable instances unavailable: cannot open their store", [
                "directory": .string(directory), "error": .string("\(error)"),
            ])
            return nil
        }
        context.commitBeforeWriting(store)
        return store
    }

    /// How loud each server event is in the daemon's log.
    private static func level(of event: ServerLogEvent) -> LogLevel {
        switch event {
        case .overflow: .notice
        case .shutdownRequested: .info
        case .internalError: .error
        case .sessionOpened, .sessionClosed, .sessionResumed: .debug
        case .sessionDetached, .sessionExpired: .info
        }
    }

    /// 128 random bits in lower-case hex: `daemon.info`'s `bootId`, new at every start.
    private static func newBootId() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (half: UInt64) in
            let digits = String(half, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
