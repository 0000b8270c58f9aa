import JSONCore
import JSONRPC
import Posix
import VMProtocol

/// A blocking, single-threaded connection for one-shot programs such as `vmctl`.
///
/// No thread, no task, no event loop: `call` writes a line and reads until its reply, so a
/// process that makes one call pays for one `connect`, one `write` and a `read` or two. That
/// matters for a CLI called in shell loops (process start is most of its cost).
/// Notifications that arrive while a reply is awaited are kept, in order, for
/// ``nextNotification(timeout:)``.
///
/// Not thread-safe: use it from one thread. Long-lived programs want ``VMClient``.
public final class VMBlockingConnection {
    /// Where this connection was made.
    public let location: VMSocketLocation
    private let socket: FileDescriptor
    private var framer = LineFramer(maxFrameBytes: Int.max / 2)
    private var nextID: Int64 = 1
    private var queued: [(method: String, params: JSONValue)] = []
    private var queuedStart = 0
    private var readBuffer = [UInt8](repeating: 0, count: 65536)
    private var ended = false

    private init(location: VMSocketLocation, socket: FileDescriptor) {
        self.location = location
        self.socket = socket
    }

    /// Connects to the daemon at `location`.
    /// - Parameter timeout: bounds the wait when the daemon's accept queue is full.
    /// - Throws: ``VMClientError/cannotConnect(path:reason:)`` when nobody answers there,
    ///   ``VMClientError/invalidSocketPath(path:reason:)`` when the path is unusable.
    public static func connect(
        to location: VMSocketLocation, timeout: Duration? = .seconds(5)
    ) throws(VMClientError) -> VMBlockingConnection {
        let address = try location.address()
        do {
            let socket = try UnixSocket.connect(to: address, timeout: timeout)
            return VMBlockingConnection(location: location, socket: socket)
        } catch let error as SystemError {
            throw .cannotConnect(path: location.path, reason: Self.explain(error))
        } catch {
            throw .cannotConnect(path: location.path, reason: "\(error)")
        }
    }

    /// Calls `method` and waits for its reply.
    /// - Parameter timeout: how long to wait for the reply; `nil` waits as long as it takes
    ///   (a slow `vm.execute` is legitimate).
    /// - Returns: the result.
    /// - Throws: ``VMClientError/remote(_:)`` when the daemon answered with an error.
    @discardableResult
    public func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration? = nil) throws(VMClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        try write(ClientWire.request(id: id, method: method, params: params))
        let deadline = timeout.map { MonotonicClock.nanoseconds() &+ Self.nanoseconds($0) }
        while true {
            // Every message of a read is handled, so notifications framed behind the reply
            // (a subscription's replay, O1-O2) are kept, not dropped.
            var answer: Result<JSONValue, VMRemoteError>? = nil
            for message in try readMessages(until: deadline) {
                switch message {
                case .response(let answered, let outcome) where answered == id:
                    answer = outcome
                case .response, .invalid:
                    continue  // not ours (cannot happen on a connection with one caller)
                case .unmatchedResponse(let outcome):
                    // An `id: null` error while our only request is outstanding is about it
                    // (an unreadable or over-long frame); a null-id success cannot happen.
                    if answer == nil, case .failure = outcome { answer = outcome }
                case .notification(let method, let params):
                    queued.append((method, params))
                }
            }
            switch answer {
            case .success(let result)?: return result
            case .failure(let error)?: throw .remote(error)
            case nil: continue
            }
        }
    }

    /// Runs `vm.execute` with `params` and waits for its reply, handing the `vm.progress` of
    /// this call to `onProgress` as they come (progress is asked for when `onProgress` is
    /// given; they all come before the reply, PROTOCOL.md O12). Other notifications are kept
    /// for ``nextNotification(timeout:)``.
    ///
    /// `shouldCancel` is asked at least every `pollInterval` while waiting; the first time
    /// it answers `true`, `$/cancelRequest` is sent for this call, whose one reply is then
    /// `requestCancelled` (thrown as ``VMClientError/remote(_:)``) unless it finished first.
    @discardableResult
    public func execute(
        _ params: VMExecuteMethod.Params,
        pollInterval: Duration = .milliseconds(100),
        onProgress: ((VMProgressNotification.Params) -> Void)? = nil,
        cancelWhen shouldCancel: () -> Bool = { false }
    ) throws(VMClientError) -> JSONValue {
        var params = params
        if onProgress != nil { params.progress = true }
        let id = nextID
        nextID += 1
        try write(ClientWire.request(id: id, method: VMExecuteMethod.name, params: params.jsonValue))
        var cancelSent = false
        while true {
            if !cancelSent, shouldCancel() {
                try notify(CancelRequestNotification.name, ["id": .integer(id)])
                cancelSent = true
            }
            let messages: [ClientWire.Incoming]
            do {
                messages = try readMessages(until: MonotonicClock.nanoseconds() &+ Self.nanoseconds(pollInterval))
            } catch .timedOut {
                continue
            }
            var answer: Result<JSONValue, VMRemoteError>? = nil
            for message in messages {
                switch message {
                case .response(let answered, let outcome) where answered == id:
                    answer = outcome
                case .response, .invalid:
                    continue
                case .unmatchedResponse(let outcome):
                    if answer == nil, case .failure = outcome { answer = outcome }
                case .notification(let method, let notification):
                    if answer == nil, method == VMProgressNotification.name, notification["request"] == .integer(id),
                       let progress = try? VMProgressNotification.Params(json: notification) {
                        onProgress?(progress)
                    } else {
                        queued.append((method, notification))
                    }
                }
            }
            switch answer {
            case .success(let result)?: return result
            case .failure(let error)?: throw .remote(error)
            case nil: continue
            }
        }
    }

    /// Sends a notification (no reply comes; `vm.send` as a notification is fire-and-forget).
    public func notify(_ method: String, _ params: JSONValue? = nil) throws(VMClientError) {
        try write(ClientWire.notification(method: method, params: params))
    }

    /// The next notification from the daemon, or `nil` when `timeout` passes first (`nil`
    /// waits for ever).
    /// - Throws: ``VMClientError/disconnected(reason:)`` when the daemon closes the connection.
    public func nextNotification(timeout: Duration? = nil) throws(VMClientError) -> (method: String, params: JSONValue)? {
        let deadline = timeout.map { MonotonicClock.nanoseconds() &+ Self.nanoseconds($0) }
        while true {
            if queuedStart < queued.count {
                let next = queued[queuedStart]
                queuedStart += 1
                if queuedStart == queued.count {
                    queued.removeAll(keepingCapacity: true)
                    queuedStart = 0
                }
                return next
            }
            let messages: [ClientWire.Incoming]
            do {
                messages = try readMessages(until: deadline)
            } catch .timedOut {
                return nil
            }
            for case .notification(let method, let params) in messages {
                queued.append((method, params))
            }
        }
    }

    /// Closes the connection (the daemon then drops this connection's subscriptions and its
    /// connection-scoped instances).
    public func close() {
        try? socket.close()
        ended = true
    }

    // MARK: - I/O

    private func write(_ bytes: [UInt8]) throws(VMClientError) {
        guard !ended else { throw .closed }
        do {
            try socket.writeAll(bytes)
        } catch {
            throw .disconnected(reason: "\(error)")
        }
    }

    /// Reads until at least one message is framed, the deadline passes, or the connection ends.
    private func readMessages(until deadline: UInt64?) throws(VMClientError) -> [ClientWire.Incoming] {
        var messages: [ClientWire.Incoming] = []
        while messages.isEmpty {
            do {
                while let frame = try framer.nextFrame() {
                    messages.append(contentsOf: ClientWire.decode(frame))
                }
            } catch {
                throw .protocolViolation("\(error)")
            }
            if !messages.isEmpty { break }
            guard !ended else { throw .disconnected(reason: "vmd closed the connection") }
            try fill(until: deadline)
        }
        return messages
    }

    /// One read into the framer, waiting no later than `deadline`.
    private func fill(until deadline: UInt64?) throws(VMClientError) {
        do {
            if let deadline {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline else { throw VMClientError.timedOut }
                let ready = try socket.wait(for: .readable, timeout: .nanoseconds(Int64(clamping: deadline - now)))
                if ready.isEmpty { throw VMClientError.timedOut }
            }
            let outcome = try readBuffer.withUnsafeMutableBytes { try socket.read(into: $0) }
            switch outcome {
            case .bytes(let count):
                readBuffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .endOfFile:
                ended = true
            case .wouldBlock:
                break
            }
        } catch let error as VMClientError {
            throw error
        } catch {
            ended = true
            throw .disconnected(reason: "\(error)")
        }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }

    /// A sentence for the usual connect failures, instead of an errno name.
    static func explain(_ error: SystemError) -> String {
        switch error.errno {
        case SystemError.noSuchFile: return "no socket there (is vmd running?)"
        case SystemError.connectionRefused: return "nobody is listening there (vmd is not running)"
        case SystemError.permissionDenied: return "permission denied"
        case SystemError.timedOut: return "vmd did not accept the connection in time"
        default: return error.reason
        }
    }
}
