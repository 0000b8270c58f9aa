import JSONCore
import VMProtocol

/// The values of a subscription, in `seq` order, as an `AsyncSequence`.
///
/// The sequence ends normally after ``VMSubscriptionEvent/closed(reason:)`` (the instance was
/// destroyed) or once ``VMClient/unsubscribe(_:)`` answers; it ends by throwing
/// ``VMClientError/disconnected(reason:)`` when the connection is lost, unless the client
/// resumes its session (``VMReconnectPolicy``): then it continues across the drop, across a
/// daemon restart when its instance came back (a durable one: its current values follow,
/// `seq` from 1 again), and ends with reason `"daemonRestarted"` or `"sessionExpired"` when
/// it cannot. A `"shutdown"` close of an instance this client created durable waits for the
/// reconnect to tell which. It buffers without
/// bound: the client always reads its socket, so a slow consumer grows this buffer rather
/// than making the daemon coalesce. Iterate it from one task.
public struct VMSubscription: AsyncSequence, Sendable {
    public typealias Element = VMSubscriptionEvent
    public typealias Failure = any Error
    public typealias AsyncIterator = Iterator

    /// The subscription id (`"sub-3"`), valid on this client's connection only. After a
    /// daemon restart the daemon knows it by another id; ``VMClient/unsubscribe(_:)`` maps it.
    public let id: String
    /// The instance watched.
    public let instance: String
    /// The consuming side of the subscription's channel: when the last copy of the sequence
    /// and of its iterators is gone, the subscription is given up.
    let consumer: SubscriptionConsumer

    init(id: String, instance: String, consumer: SubscriptionConsumer) {
        self.id = id
        self.instance = instance
        self.consumer = consumer
    }

    public func makeAsyncIterator() -> Iterator { Iterator(consumer: consumer) }

    /// Iterates a subscription: takes every event the client has received so far at once,
    /// then hands them out one by one without locking or waiting (SubscriptionChannel.swift).
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = VMSubscriptionEvent
        public typealias Failure = any Error

        let consumer: SubscriptionConsumer
        /// The list of events handed out now, from `position` on. Visible to the inlined
        /// ``next(isolation:)`` (below), whose use is all this module may rely on.
        @usableFromInline var batch: [VMSubscriptionEvent] = []
        @usableFromInline var position = 0
        /// The rest of what was taken from the channel with `batch`: lists handed out after
        /// it, from `nextList` on.
        private var lists: [[VMSubscriptionEvent]] = []
        private var nextList = 0
        /// Shared by the copies of this iterator: while it is not, no other iterator holds
        /// `batch` either, and events are moved out of it instead of copied.
        @usableFromInline var copies = IteratorCopies()

        init(consumer: SubscriptionConsumer) { self.consumer = consumer }

        /// The next event, waiting for it when none has arrived; `nil` once the subscription
        /// ended (and when the waiting task is cancelled: the subscription is then given up).
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> VMSubscriptionEvent? {
            // Inlined into the caller: an event already taken costs no async call and no
            // switch to `actor` (the caller's own isolation when `for await` passes it).
            if let event = nextTaken() { return event }
            return try await nextBatch(isolation: actor)
        }

        /// ``next(isolation:)`` from a nonisolated context.
        @inlinable
        public mutating func next() async throws -> VMSubscriptionEvent? {
            if let event = nextTaken() { return event }
            return try await nextBatch(isolation: nil)
        }

        /// The next event of `batch`, or nil when it is handed out. Moved out (a value without
        /// references left in its place, never read again) when this iterator has no copies,
        /// so it is neither copied nor destroyed a second time with the list; copied when it has
        /// (they may hold the same list, each reading it whole).
        @inlinable
        mutating func nextTaken() -> VMSubscriptionEvent? {
            guard position < batch.count else { return nil }
            defer { position &+= 1 }
            guard isKnownUniquelyReferenced(&copies) else { return batch[position] }
            var event = VMSubscriptionEvent.overflow(0...0)
            swap(&event, &batch[position])
            return event
        }

        /// The first event of the next list taken (the rest stay in `batch`), waiting for the
        /// channel when none is left; `nil` once the subscription ended.
        @usableFromInline
        mutating func nextBatch(isolation actor: isolated (any Actor)?) async throws -> VMSubscriptionEvent? {
            while true {
                batch = []
                while nextList < lists.count {
                    swap(&batch, &lists[nextList])
                    nextList += 1
                    if let first = batch.first {  // never empty: a channel keeps no empty list
                        position = 1
                        return first
                    }
                }
                lists = []
                nextList = 0
                switch await consumer.channel.take(isolation: actor) {
                case .events(let taken):
                    lists = taken
                case .end(let error):
                    if let error { throw error }
                    return nil
                }
            }
        }
    }
}

/// What the copies of one ``VMSubscription/Iterator`` share: one reference each, so an
/// iterator finds out whether it has copies (nothing else is kept).
@usableFromInline
final class IteratorCopies: Sendable {
    init() {}
}

/// Holds a subscription's channel for its consumer; gone, it cancels the channel (the
/// consumer dropped the sequence without ending it).
final class SubscriptionConsumer: Sendable {
    let channel: SubscriptionChannel

    init(channel: SubscriptionChannel) { self.channel = channel }

    deinit { channel.cancel() }
}

/// The messages of a monitor (`daemon.monitor`), as an `AsyncSequence`. Ends once
/// ``VMClient/unmonitor(_:)`` answers, or by throwing when the connection is lost.
public struct VMMonitor: AsyncSequence, Sendable {
    public typealias Element = VMMonitorMessage
    public typealias AsyncIterator = AsyncThrowingStream<VMMonitorMessage, any Error>.Iterator

    /// The monitor id.
    public let id: String
    let stream: AsyncThrowingStream<VMMonitorMessage, any Error>

    public func makeAsyncIterator() -> AsyncIterator { stream.makeAsyncIterator() }
}

/// What `vm.create` answered, with the subscription it opened when asked to.
public struct VMCreatedInstance: Sendable {
    /// The instance id (`"counter-1"`, or the id asked for).
    public let instance: String
    public let type: String
    public let scope: InstanceScope
    /// The values of the new instance from its first one (O3), when `subscribe` was given.
    public let subscription: VMSubscription?
}
