import Foundation
import JSONCore
import ReactiveCore
import VMProtocol
import VMServer
import ViewModelCatalog
import ViewModelKit

/// A server on the catalog, driven in-process.
final class InProcessServer {
    let host: ViewModelHost
    let server: Server
    private var nextConnection: UInt64 = 0

    init(queue: DispatchQueue) {
        let scheduler = DispatchQueueScheduler(queue: queue)
        let stateDirectory = NSTemporaryDirectory() + "vmd-bench-\(getpid())"
        do {
            let registry = try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: stateDirectory))
            host = ViewModelHost(registry: registry, scheduler: scheduler)
        } catch {
            fatalError("the catalog does not register: \(error)")
        }
        let identity = ServerIdentity(
            version: "bench", bootId: "00000000000000000000000000000000", pid: Int64(getpid()),
            startedAt: scheduler.now, socketPath: "/nonexistent/vmd-bench.sock", uid: getuid())
        server = Server(host: host, limits: VMLimits(maxInstances: 1_000_000), identity: identity)
    }

    /// A new connection and its sink.
    func connect() -> (id: ConnectionID, sink: CountingSink) {
        nextConnection += 1
        let sink = CountingSink()
        let id = ConnectionID(nextConnection)
        server.connectionOpened(id, peer: PeerIdentity(pid: getpid(), uid: getuid(), gid: getgid()), sink: sink)
        return (id, sink)
    }

    func feed(_ frame: [UInt8], on id: ConnectionID) {
        frame.withUnsafeBytes { server.frameReceived($0, on: id) }
    }

    /// Sends a request written as text.
    func request(_ text: String, on id: ConnectionID) {
        feed(Array(text.utf8), on: id)
    }

    /// Sends a request built as a value.
    func request(_ message: JSONValue, on id: ConnectionID) {
        feed(message.encodedBytes(), on: id)
    }
}

/// Counts what the server writes; never holds bytes back.
final class CountingSink: ConnectionSink {
    private(set) var messages = 0
    private(set) var bytes = 0
    private(set) var errors = 0
    /// Whether to look for `"error":` in each message (creates only: it costs a scan).
    var checksErrors = false
    var pendingBytes: Int { 0 }

    func enqueue(message: UnsafeRawBufferPointer) {
        messages += 1
        bytes += message.count
        // `"error"` appears only in failures (a Counter's values are integers).
        if checksErrors, containsError(message) { errors += 1 }
    }

    func close() {}

    func reset() {
        messages = 0
        bytes = 0
        errors = 0
    }

    private func containsError(_ message: UnsafeRawBufferPointer) -> Bool {
        let needle = Array(#""error":"#.utf8)
        guard message.count >= needle.count else { return false }
        for start in 0...(message.count - needle.count) where message[start] == needle[0] {
            if (0..<needle.count).allSatisfy({ message[start + $0] == needle[$0] }) { return true }
        }
        return false
    }
}
