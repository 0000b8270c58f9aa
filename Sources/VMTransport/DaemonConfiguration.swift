import Posix
import VMProtocol

/// Everything the daemon needs to run, already resolved (vmd turns flags, environment and the
/// config file into one of these; tests build one directly).
package struct DaemonConfiguration: Sendable {
    /// The socket path chosen by the socket-path rule.
    package var socketPath: String
    /// Which rule chose ``socketPath`` (`--socket`, `VMD_SOCKET`, ...), for the start-up log.
    package var socketPathSource: String
    /// The limits in force.
    package var limits: VMLimits
    /// What to do with slow readers.
    package var slowClient: SlowClientMode
    /// Peer uids admitted besides the daemon's own (`--allow-uid`).
    package var allowedUIDs: Set<UInt32>
    /// Log verbosity and format.
    package var logLevel: LogLevel
    package var logFormat: LogFormat
    /// Exit (as on SIGTERM) after this long without any connection; `nil` never.
    package var exitWhenIdle: Duration?
    /// How long shutdown waits for outbound buffers to drain before closing anyway.
    package var shutdownGrace: Duration
    /// How long a connection being closed may take to write what is queued for it.
    package var closeLinger: Duration
    /// Use a socket passed by systemd socket activation (`LISTEN_FDS`) when there is one.
    package var acceptsSocketActivation: Bool
    /// Send `READY=1`/`STOPPING=1` to `NOTIFY_SOCKET` when it is set.
    package var notifiesServiceManager: Bool
    /// The daemon's version, for the start-up log line.
    package var version: String
    /// The daemon's name (the executable's: `vmd`, or an app's), for the start-up log line.
    package var name: String
    /// The readiness backend of the daemon's event loop.
    package var eventLoop: EventLoopBackend
    /// After a burst, how long without a frame before freed heap is given back to the kernel
    /// (see `HeapTrimmer`); `nil` never trims. While set, the heap's growth is also populated
    /// ahead of the loop by a helper thread (`Heap.startPrefaulting()`, started in Daemon.swift).
    package var trimsHeapAfterIdle: Duration? = .seconds(1)
    /// Whether every instance is recorded from its creation, as with `vm.create {record: true}`
    /// (`--record-all`, for development: each costs up to `Tape.maxRecordedBytes` of tape).
    package var recordsEveryInstance = false
    /// The uid the peer check treats as the daemon's own, instead of the process's: a test
    /// seam, so a test can see how a peer of another user is refused without a second user.
    package var ownUIDOverride: UInt32?

    /// A configuration with the contract's defaults on `socketPath`.
    package init(
        socketPath: String, socketPathSource: String = "--socket", limits: VMLimits = VMLimits(),
        slowClient: SlowClientMode = .coalesce, allowedUIDs: Set<UInt32> = [],
        logLevel: LogLevel = .info, logFormat: LogFormat = .plain, exitWhenIdle: Duration? = nil,
        shutdownGrace: Duration = .seconds(2), closeLinger: Duration = .seconds(5),
        acceptsSocketActivation: Bool = true, notifiesServiceManager: Bool = true,
        version: String = VMDVersion.current, name: String = "vmd", eventLoop: EventLoopBackend = .platformDefault
    ) {
        self.socketPath = socketPath
        self.socketPathSource = socketPathSource
        self.limits = limits
        self.slowClient = slowClient
        self.allowedUIDs = allowedUIDs
        self.logLevel = logLevel
        self.logFormat = logFormat
        self.exitWhenIdle = exitWhenIdle
        self.shutdownGrace = shutdownGrace
        self.closeLinger = closeLinger
        self.acceptsSocketActivation = acceptsSocketActivation
        self.notifiesServiceManager = notifiesServiceManager
        self.version = version
        self.name = name
        self.eventLoop = eventLoop
    }
}
