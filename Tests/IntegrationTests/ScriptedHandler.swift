import Synchronization
import VMTransport
import VMServer
import VMTestSupport

/// A ConnectionHandler for transport tests (test target only): echoes every frame verbatim,
/// and obeys a few command frames (JSON strings) so a test can make the transport do things:
///
/// - `"flood:COUNT:SIZE"` queues COUNT messages of SIZE bytes (a slow-reader test's load);
/// - `"close"` closes the connection through the sink;
/// - `"shutdown"` asks the daemon to stop (as `daemon.shutdown` would);
/// - `"whoami"` answers the peer's uid.
///
/// On shutdown it writes `{"bye":true}` to every connection; a drain is answered `"drained"`.
/// Every callback is recorded in ``events`` for the test thread to check.
final class ScriptedHandler: ConnectionHandler {
    let events: LineRecorder
    private let context: DaemonContext
    private var sinks: [ConnectionID: any ConnectionSink] = [:]
    private var peers: [ConnectionID: PeerIdentity] = [:]

    init(context: DaemonContext, events: LineRecorder) {
        self.context = context
        self.events = events
    }

    func connectionOpened(_ id: ConnectionID, peer: PeerIdentity, sink: any ConnectionSink) {
        sinks[id] = sink
        peers[id] = peer
        events.append("opened \(id) uid \(peer.uid)")
    }

    func frameReceived(_ frame: UnsafeRawBufferPointer, on id: ConnectionID) {
        guard let sink = sinks[id] else { return }
        let text = String(decoding: frame, as: UTF8.self)
        events.append("frame \(id) \(text.count) bytes")
        if text.hasPrefix("\"flood:") {
            let parts = text.dropFirst().dropLast().split(separator: ":")
            let count = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            let size = parts.count > 2 ? Int(parts[2]) ?? 10 : 10
            let payload = Array(("\"" + String(repeating: "x", count: max(0, size - 2)) + "\"").utf8)
            for _ in 0..<count { payload.withUnsafeBytes { sink.enqueue(message: $0) } }
            events.append("flooded \(id) pending \(sink.pendingBytes)")
        } else if text == "\"close\"" {
            send("\"closing\"", to: sink)
            sink.close()
        } else if text == "\"shutdown\"" {
            send("{\"stopping\":true}", to: sink)
            context.requestShutdown()
        } else if text == "\"whoami\"" {
            send("{\"uid\":\(peers[id]?.uid ?? 0)}", to: sink)
        } else {
            sink.enqueue(message: frame)
        }
    }

    func connectionDrained(_ id: ConnectionID) {
        events.append("drained \(id)")
        if let sink = sinks[id] { send("\"drained\"", to: sink) }
    }

    func connectionClosed(_ id: ConnectionID) {
        sinks[id] = nil
        peers[id] = nil
        events.append("closed \(id)")
    }

    func shutdown() {
        events.append("shutdown")
        for sink in sinks.values { send("{\"bye\":true}", to: sink) }
    }

    private func send(_ text: String, to sink: any ConnectionSink) {
        Array(text.utf8).withUnsafeBytes { sink.enqueue(message: $0) }
    }
}

/// An in-process daemon serving a ``ScriptedHandler`` on a fresh temporary socket.
struct ScriptedDaemon {
    let directory: TemporarySocketDirectory
    let daemon: InProcessDaemon
    let events: LineRecorder

    init(
        socketName: String? = nil, notifySocket: String? = nil,
        configure: (inout DaemonConfiguration) -> Void = { _ in }
    ) throws {
        let directory = try TemporarySocketDirectory()
        var configuration = DaemonConfiguration(socketPath: socketName ?? directory.socketPath)
        configure(&configuration)
        let events = LineRecorder()
        self.directory = directory
        self.events = events
        self.daemon = try InProcessDaemon.start(configuration, notifySocket: notifySocket) { context in
            ScriptedHandler(context: context, events: events)
        }
    }

    var socketPath: String { daemon.socketPath }

    func connect() throws -> SocketClient { try SocketClient.connect(path: daemon.socketPath) }

    func stop() {
        daemon.stop()
        directory.remove()
    }
}
