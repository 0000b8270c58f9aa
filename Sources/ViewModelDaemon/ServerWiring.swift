import Posix
import VMDaemon
import VMProtocol
import VMServer
import ViewModelKit

/// Builds what the daemon serves: the registry's view models in a host on the loop's
/// scheduler, behind VMServer's JSON-RPC dispatch.
enum ServerWiring {
    static func makeHandler(registry: ViewModelRegistry, context: DaemonContext) throws -> any ConnectionHandler {
        let configuration = context.configuration
        let limits = configuration.limits
        let host = ViewModelHost(registry: registry, scheduler: context.scheduler, maxInstances: limits.maxInstances)
        let identity = ServerIdentity(
            version: configuration.version, bootId: newBootId(), pid: Int64(CurrentProcess.pid),
            startedAt: context.scheduler.now, socketPath: context.socketPath,
            slowClient: configuration.slowClient, uid: CurrentProcess.uid)
        let log = context.log
        let server = Server(
            host: host, scheduler: context.scheduler,
            limits: limits,
            identity: identity,
            log: { event in log.log(level(of: event), event.description) },
            requestShutdown: { context.requestShutdown() })
        server.recordsEveryInstance = configuration.recordsEveryInstance
        return server
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
