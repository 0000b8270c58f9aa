import Synchronization

/// The buffer between the client's loop thread, which puts a subscription's events in, and
/// the one task that iterates the subscription (``VMSubscription/Iterator``).
///
/// Built for a busy subscription: the loop appends every event of one socket read without
/// waking anybody (``append(_:)``), then wakes the waiting consumer once (``wake()``); the
/// consumer takes the whole buffer at once (``take(isolation:)``) and hands the events out of
/// its own copy, so the lock and the wakeup are paid per read, not per notification. The
/// buffer is a list of the reads' lists, each kept as it was appended: a read's values join
/// the buffer in one move, never copied one by one behind values the consumer has not taken. (An
/// `AsyncThrowingStream` resumes its consumer for every element: one futex wake and one sleep
/// per notification when the consumer keeps up.)
///
/// Unbounded, like the stream it replaces: the client always reads its socket (VMSubscription.swift).
/// Ending: ``finish(throwing:)`` ends it after the buffered events; the consumer giving up
/// (its task cancelled while waiting, or every copy of the sequence and its iterators
/// dropped) calls ``cancel()``, which runs ``onCancel`` once.
final class SubscriptionChannel: Sendable {
    /// What a ``take(isolation:)`` gets: events, or the end.
    enum Taken: Sendable {
        /// The buffered events in order: each list as it was appended, none empty.
        case events([[VMSubscriptionEvent]])
        case end(error: (any Error)?)
    }

    private struct State: Sendable {
        /// The events not taken yet, in order: each read's list as ``append(contentsOf:)``
        /// took it (``append(_:)`` adds to the last one); never an empty list.
        var buffer: [[VMSubscriptionEvent]] = []
        /// The consumer waiting in ``take(isolation:)``, if it is.
        var waiter: CheckedContinuation<Taken, Never>?
        /// An ``append(_:)`` already told its caller to ``wake()`` the waiter.
        var wakeOwed = false
        /// Set by ``finish(throwing:)`` or ``cancel()``: nothing more is appended.
        var isFinished = false
        /// The error to throw once the buffer is drained (taken by the first such take).
        var failure: (any Error)?
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Runs once, on the thread that cancels, when the consumer gives up before the end.
    var onCancel: (@Sendable () -> Void)? {
        get { state.withLock { $0.onCancel } }
        set { state.withLock { $0.onCancel = newValue } }
    }

    /// Whether the consumer waits in ``take(isolation:)`` now (for tests).
    var consumerIsWaiting: Bool { state.withLock { $0.waiter != nil } }

    // MARK: - Producer (the loop thread)

    /// Appends without waking the consumer; true for the first append that finds a consumer
    /// waiting: the caller must then ``wake()`` it (once, after its batch).
    func append(_ event: VMSubscriptionEvent) -> Bool {
        state.withLock { state in
            guard !state.isFinished else { return false }
            if state.buffer.isEmpty {
                state.buffer.append([event])
            } else {
                state.buffer[state.buffer.count - 1].append(event)
            }
            guard state.waiter != nil, !state.wakeOwed else { return false }
            state.wakeOwed = true
            return true
        }
    }

    /// Appends `events` (a read's values, in order), taking them: `events` is left empty.
    /// Returns as ``append(_:)`` does.
    func append(contentsOf events: inout [VMSubscriptionEvent]) -> Bool {
        var taken: [VMSubscriptionEvent] = []
        swap(&taken, &events)
        return state.withLock { state in
            guard !state.isFinished else { return false }
            // The list itself joins the buffer: its values are moved, not copied.
            if !taken.isEmpty { state.buffer.append(taken) }
            guard state.waiter != nil, !state.wakeOwed else { return false }
            state.wakeOwed = true
            return true
        }
    }

    /// Hands everything buffered to the waiting consumer, if one waits.
    func wake() {
        let handed: (CheckedContinuation<Taken, Never>, [[VMSubscriptionEvent]])? = state.withLock { state in
            state.wakeOwed = false
            guard let waiter = state.waiter, !state.buffer.isEmpty else { return nil }
            state.waiter = nil
            defer { state.buffer = [] }
            return (waiter, state.buffer)
        }
        if let (waiter, events) = handed { waiter.resume(returning: .events(events)) }
    }

    /// Appends and wakes at once (events outside a read's batch).
    func yield(_ event: VMSubscriptionEvent) {
        if append(event) { wake() }
    }

    /// Ends the sequence once the buffered events are taken: normally, or by throwing `error`.
    func finish(throwing error: (any Error)? = nil) {
        let handed: (CheckedContinuation<Taken, Never>, Taken)? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.failure = error
            state.onCancel = nil
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, Self.takeNow(&state) ?? .end(error: nil))
        }
        if let (waiter, taken) = handed { waiter.resume(returning: taken) }
    }

    // MARK: - Consumer

    /// The consumer gave up: no more events are kept, a waiting take ends, ``onCancel`` runs.
    func cancel() {
        let (waiter, handler) = state.withLock { state -> (CheckedContinuation<Taken, Never>?, (@Sendable () -> Void)?) in
            guard !state.isCancelled else { return (nil, nil) }
            state.isCancelled = true
            let handler = state.isFinished ? nil : state.onCancel
            state.isFinished = true
            state.onCancel = nil
            state.buffer = []
            state.failure = nil
            defer { state.waiter = nil }
            return (state.waiter, handler)
        }
        waiter?.resume(returning: .end(error: nil))
        handler?()
    }

    /// Everything buffered, waiting for it when nothing is; `.end` once finished and drained.
    /// Cancelling the waiting task cancels the channel.
    func take(isolation actor: isolated (any Actor)? = #isolation) async -> Taken {
        if let taken = state.withLock({ Self.takeNow(&$0) }) { return taken }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Taken, Never>) in
                let now = state.withLock { state -> Taken? in
                    if let taken = Self.takeNow(&state) { return taken }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// What a take gets without waiting, or nil when it must wait.
    private static func takeNow(_ state: inout State) -> Taken? {
        if !state.buffer.isEmpty {
            defer { state.buffer = [] }
            return .events(state.buffer)
        }
        guard state.isFinished else { return nil }
        defer { state.failure = nil }
        return .end(error: state.failure)
    }
}
