import JSONCore
import VMProtocol
import Posix

/// An `async` client for vmd: calls, typed helpers for every method, subscriptions as
/// `AsyncSequence`s, typed errors, and optional reconnection.
///
/// ```swift
/// let client = try await VMClient.connect()                 // the socket-path rule
/// let counter = try await client.create(type: "Counter", subscribe: .init())
/// try await client.send(instance: counter.instance, input: "increment", value: 2)
/// for try await event in counter.subscription! {            // ends at vm.closed
///     if case .output(let value) = event { print(value.output, value.value) }
/// }
/// ```
///
/// **Threads.** Each client owns one event-loop thread (Posix's event loop: epoll on Linux,
/// poll elsewhere) that does every read and write on its socket; callers only queue bytes
/// and await continuations. So no
/// blocking system call ever runs on Swift's cooperative pool, however
/// slowly the daemon reads, and one thread serves any number of concurrent calls and
/// subscriptions. (A blocking reader thread plus writes from the caller would be simpler,
/// but a caller's `write` could then block a pool thread while the daemon's inbound side
/// is stalled; the loop costs one eventfd wakeup per queued burst.)
///
/// **Ordering.** Replies and notifications are delivered in wire order: a subscription's
/// values arrive in `seq` order, and the values a `vm.send` caused are yielded before its
/// call returns (O4).
public final class VMClient: Sendable {
    /// Options for ``connect(to:options:)``.
    public struct Options: Sendable {
        /// Reconnect after the connection is lost, resuming the session when the daemon offers
        /// sessions (``VMReconnectPolicy``). `nil`: do not.
        public var reconnect: VMReconnectPolicy?
        /// Ask `daemon.info` on connect and refuse a daemon of another protocol level.
        public var checksProtocolLevel: Bool

        public init(reconnect: VMReconnectPolicy? = nil, checksProtocolLevel: Bool = true) {
            self.reconnect = reconnect
            self.checksProtocolLevel = checksProtocolLevel
        }
    }

    /// Where the client connects.
    public let location: VMSocketLocation
    /// Connection changes and notifications no subscription claims (`vm.error` chiefly).
    /// Buffers the newest 1,024 events when nobody reads it.
    public let events: AsyncStream<VMClientEvent>
    /// `daemon.info` as answered at connect time (`nil` when the check was turned off and
    /// reconnecting is off).
    public let connectInfo: DaemonInfoMethod.Result?

    let core: ClientCore
    let thread: EventLoopThread

    private init(location: VMSocketLocation, events: AsyncStream<VMClientEvent>, core: ClientCore,
                 thread: EventLoopThread, connectInfo: DaemonInfoMethod.Result?) {
        self.location = location
        self.events = events
        self.core = core
        self.thread = thread
        self.connectInfo = connectInfo
    }

    /// Connects to the daemon at `location` (by default: the protocol's socket-path rule).
    /// - Throws: ``VMClientError/cannotConnect(path:reason:)`` when nobody answers there;
    ///   ``VMClientError/unsupportedProtocolLevel(_:)`` for a daemon of another level.
    public static func connect(
        to location: VMSocketLocation = .resolve(), options: Options = Options()
    ) async throws -> VMClient {
        let (events, eventSink) = AsyncStream<VMClientEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let thread: EventLoopThread
        do {
            thread = try EventLoopThread.start(setup: { _ in })
        } catch {
            throw VMClientError.cannotConnect(path: location.path, reason: "cannot start the client's I/O thread: \(error)")
        }
        let core = ClientCore(location: location, reconnectPolicy: options.reconnect, loop: thread.handle, events: eventSink)
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let queued = thread.handle.submit { loop in
                    do throws(VMClientError) {
                        try core.open(on: loop)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                if !queued { continuation.resume(throwing: VMClientError.closed) }
            }
        } catch {
            thread.handle.submit { loop in core.shutdown(on: loop) }
            thread.join()
            throw error
        }
        var info: DaemonInfoMethod.Result? = nil
        // Reconnecting needs the boot id, to tell a resume from a restart (ClientCore+Session.swift).
        if options.checksProtocolLevel || options.reconnect != nil {
            do {
                let result = try await core.call(DaemonInfoMethod.name, nil)
                // The level first: a daemon of another level may answer in another shape.
                if options.checksProtocolLevel, let level = result["protocol"]?.intValue, level != OpenRPCDocument.protocolLevel {
                    throw VMClientError.unsupportedProtocolLevel(level)
                }
                info = try decodeResult(of: DaemonInfoMethod.name) { () throws(JSONDecodingError) in try DaemonInfoMethod.Result(json: result) }
                if options.reconnect != nil { await core.openSession(bootID: info?.bootId) }
            } catch {
                thread.handle.submit { loop in core.shutdown(on: loop) }
                thread.join()
                throw error
            }
        }
        return VMClient(location: location, events: events, core: core, thread: thread, connectInfo: info)
    }

    deinit {
        let core = self.core
        thread.handle.submit { loop in core.shutdown(on: loop) }
        if !thread.handle.isInLoopThread { thread.join() }
    }

    /// Closes the connection: pending calls fail with ``VMClientError/closed``, every
    /// subscription and monitor sequence ends, ``events`` ends. The daemon then destroys the
    /// `connection`-scoped instances this client created.
    public func close() {
        let core = self.core
        thread.handle.submit { loop in core.shutdown(on: loop) }
    }

    /// Whether the connection is open now (false while reconnecting and after ``close()``).
    public var isConnected: Bool { core.isConnected }

    /// Calls any method and returns its raw result.
    /// - Throws: ``VMClientError/remote(_:)`` with the daemon's code, message and data, or
    ///   another ``VMClientError`` when no answer came.
    @discardableResult
    public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        try await core.call(method, params)
    }

    /// Sends a notification (no reply; a failing `vm.send` or `vm.execute` sent this way is
    /// reported as a `vm.error` notification on ``events``).
    public func notify(_ method: String, _ params: JSONValue? = nil) throws {
        try core.notify(method, params)
    }
}
