import Dispatch
import JSONCore
import Posix
import ReactiveCore
import VMProtocol
import VMServer
import ViewModelCatalog
import ViewModelKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fuzzes request dispatch: each line of the input is one frame given to an in-process
/// ``Server`` on the catalog (as Sources/vmd-bench/ServerBenchmarks.swift drives it), on
/// connection 1, or on connection 2 when the line starts with `2>` (the rest is the frame).
/// A line `close` closes connection 1 and opens it again. A fresh server serves every input;
/// it is shut down at the end.
///
/// Checked: every message the server writes is a JSON object or a non-empty array of them,
/// each with `"jsonrpc":"2.0"`, and error objects carry an integer code and a message.
enum RequestTarget {
    /// The catalog, registered once (its state directory is made once per process).
    static let registry: ViewModelRegistry? = {
        do {
            let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmd-fuzz-XXXXXX")
            return try Catalog.registry(configuration: CatalogConfiguration(stateDirectory: directory))
        } catch {
            printError("vmd-fuzz: the catalog does not register: \(error)\n")
            return nil
        }
    }()

    static let queue = DispatchQueue(label: "vmd-fuzz.requests")

    static func run(_ input: UnsafeRawBufferPointer) {
        serve(input, usingFastPaths: true) { _ in CheckingSink() }
    }

    /// Serves `input`'s lines on a fresh server, each connection writing to the sink `makeSink`
    /// returns for its number (called again when `close` reopens connection 1). With
    /// `usingFastPaths` false every frame takes the general path (DifferentialTarget.swift).
    static func serve(_ input: UnsafeRawBufferPointer, usingFastPaths: Bool, makeSink: (Int) -> any ConnectionSink) {
        guard let registry else { preconditionFailure("no catalog") }
        let lines = Array(input).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        queue.sync {
            let scheduler = DispatchQueueScheduler(queue: queue)
            let host = ViewModelHost(registry: registry, scheduler: scheduler)
            let identity = ServerIdentity(
                version: "fuzz", bootId: "00000000000000000000000000000000", pid: Int64(getpid()),
                startedAt: scheduler.now, socketPath: "/nonexistent/vmd-fuzz.sock", uid: getuid())
            let server = Server(host: host, limits: VMLimits(maxInstances: 64), identity: identity)
            server.usesFastPaths = usingFastPaths
            let peer = PeerIdentity(pid: getpid(), uid: getuid(), gid: getgid())
            let first = ConnectionID(1)
            let second = ConnectionID(2)
            server.connectionOpened(first, peer: peer, sink: makeSink(1))
            server.connectionOpened(second, peer: peer, sink: makeSink(2))
            for line in lines {
                if line.elementsEqual("close".utf8) {
                    server.connectionClosed(first)
                    server.connectionOpened(first, peer: peer, sink: makeSink(1))
                    continue
                }
                var frame = Array(line)
                var connection = first
                if frame.starts(with: "2>".utf8) {
                    frame.removeFirst(2)
                    connection = second
                }
                frame.withUnsafeBytes { server.frameReceived($0, on: connection) }
            }
            server.connectionClosed(first)
            server.connectionClosed(second)
            server.shutdown()
        }
    }
}

/// A sink that checks every message the server writes and forgets it.
final class CheckingSink: ConnectionSink {
    var pendingBytes: Int { 0 }

    func enqueue(message: UnsafeRawBufferPointer) {
        Self.check(message: message)
    }

    func close() {}

    /// Traps unless `message` is a JSON-RPC 2.0 message or a non-empty batch of them.
    static func check(message: UnsafeRawBufferPointer) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(message)
        } catch {
            preconditionFailure("the server wrote invalid JSON (\(error)): \(String(decoding: message, as: UTF8.self))")
        }
        if case .array(let elements) = value {
            precondition(!elements.isEmpty, "the server wrote an empty batch response")
            elements.forEach(Self.check)
        } else {
            Self.check(value)
        }
    }

    private static func check(_ message: JSONValue) {
        precondition(message["jsonrpc"] == "2.0", "not JSON-RPC 2.0: \(message)")
        guard let error = message["error"] else { return }
        precondition(error["code"]?.intValue != nil && error["message"]?.stringValue != nil, "malformed error: \(message)")
    }
}
