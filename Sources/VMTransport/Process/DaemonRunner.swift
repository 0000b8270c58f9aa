import Posix
import VMServer

/// Runs a daemon as the process's main job, for `ViewModelDaemon`'s entry point: process set-up, listener,
/// loop on the calling thread, graceful stop, exit status.
package enum DaemonRunner {
    /// Exit statuses of `vmd` (documented in its help).
    package enum ExitStatus {
        /// Stopped normally (SIGTERM, SIGINT, `daemon.shutdown`, idle exit).
        package static let success: Int32 = 0
        /// Could not start: socket path unusable, or a live daemon already owns it.
        package static let startFailed: Int32 = 1
        /// Bad command line or configuration.
        package static let usage: Int32 = 2
    }

    /// Sets up the process (SIGPIPE ignored, open-file limit raised), opens the listener, builds
    /// the handler with `makeHandler` on this thread, and runs the event loop here until the
    /// daemon stops. Returns the exit status; start-up failures are logged first.
    package static func run(
        configuration: DaemonConfiguration, environment: [String: String],
        makeHandler: (DaemonContext) throws -> any ConnectionHandler
    ) -> Int32 {
        let log = DaemonLog.forProcess(threshold: configuration.logLevel, format: configuration.logFormat,
                                       environment: environment)
        // A peer that disconnects mid-write must cost an EPIPE, not the daemon.
        UnixSignal.ignoreBrokenPipe()
        log.info("starting", [
            "name": .string(configuration.name), "version": .string(configuration.version),
            "event-loop": .string(configuration.eventLoop.rawValue), "pid": LogValue(CurrentProcess.pid),
            "uid": LogValue(CurrentProcess.uid),
        ])
        var configuration = configuration
        do {
            let limits = try ResourceLimits.raiseOpenFileLimit()
            log.debug("open-file limit raised", ["soft": LogValue(limits.soft), "hard": LogValue(limits.hard)])
            if let clamped = FileDescriptorBudget.clamp(configuration.limits, openFileLimit: limits.soft) {
                log.notice("max-connections clamped to what the open-file limit allows", [
                    "requested": LogValue(configuration.limits.maxConnections),
                    "maxConnections": LogValue(clamped.maxConnections),
                    "openFileLimit": LogValue(limits.soft), "reserved": LogValue(FileDescriptorBudget.reserve),
                ])
                configuration.limits = clamped
            }
        } catch {
            log.warning("could not raise the open-file limit", ["error": "\(error)"])
        }
        // libdispatch's descriptors must exist before connections can take every descriptor
        // (see DispatchWarmUp): started here, waited for just before the daemon accepts.
        let warmUp = DispatchWarmUp.start()
        let loop: EventLoop
        let signals = SignalRoute()
        do {
            loop = try EventLoop(backend: configuration.eventLoop)
            // Before anything that can take a while (binding, building the handler): a SIGTERM
            // sent during start-up waits in the loop's signal pipe and stops the daemon
            // gracefully once it runs, instead of killing it with its socket file left behind.
            try loop.onSignal(.terminate) { signals.daemon?.received(.terminate) }
            try loop.onSignal(.interrupt) { signals.daemon?.received(.interrupt) }
        } catch {
            log.error("cannot set up the event loop", ["error": "\(error)"])
            return ExitStatus.startFailed
        }
        let opened: ListenerSetup.Opened
        do {
            opened = try ListenerSetup.open(socketPath: configuration.socketPath,
                                            acceptsSocketActivation: configuration.acceptsSocketActivation)
        } catch {
            log.error(error.description)
            return ExitStatus.startFailed
        }
        if opened.replacedStaleSocket {
            log.notice("replaced a stale socket file nobody answered on", ["socket": .string(configuration.socketPath)])
        }
        do {
            let notifier = configuration.notifiesServiceManager ? try ServiceNotifier(environment: environment) : nil
            let daemon = Daemon(configuration: configuration, listener: opened.listener,
                                isSocketActivated: opened.isSocketActivated, loop: loop, log: log, notifier: notifier)
            let handler = try makeHandler(daemon.context)
            if !warmUp.wait() {
                log.warning("libdispatch did not start its event loop within 5 s; async work may fail once descriptors run out")
            }
            daemon.onStopped = { [unowned loop] in loop.stop() }
            try daemon.start(serving: handler, handlesSignals: false)
            signals.daemon = daemon
            try loop.run()
            return ExitStatus.success
        } catch {
            log.error("daemon failed", ["error": "\(error)"])
            try? opened.listener.close()
            return ExitStatus.startFailed
        }
    }
}

/// Where the signal handlers, installed before the daemon exists, find it (loop thread only).
private final class SignalRoute {
    weak var daemon: Daemon?
}
