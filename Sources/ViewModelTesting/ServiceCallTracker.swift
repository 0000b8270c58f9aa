import ReactiveTesting
import Synchronization
import ViewModelKit

/// Tracks the service calls a harness's view model (and its children) start with
/// `context.call` / `context.action`, from subscription to result, so the harness can tell
/// when async work has nothing left to do until virtual time passes (``ViewModelHarness/settle(sourceLocation:)``).
///
/// A call is *running* from its subscription until its result is in the scheduler's inbox
/// (*posted*), except while its task sleeps on a ``VirtualClock`` whose wake-up is queued
/// (*asleep*). It *ends* when its result is delivered or it is disposed, and leaves the
/// tracker once its task has returned too: a cancelled call runs until its task has seen
/// the cancellation, so a fake's reaction to it is done by the time ``settle`` returns.
final class ServiceCallTracker: ServiceCallTracking {
    private struct Call {
        let label: String
        var sleeps = 0
        var isPosted = false
        /// Delivered or disposed.
        var isEnded = false
        /// The work returned (or threw).
        var isTaskDone = false
        /// Reported running while virtual time moved synchronously (``reportRunning()``).
        var isReported = false
        /// Running in real time: neither asleep on the virtual clock nor posted; once ended
        /// (cancelled), until its task returns. (A task that returned is still running until
        /// it posted: its result is on its way to the inbox.)
        var isRunning: Bool { sleeps == 0 && (isEnded ? !isTaskDone : !isPosted) }
        var isGone: Bool { isEnded && isTaskDone }
        var description: String { isEnded ? label + " (cancelled)" : label }
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>

        func wake() { continuation.resume() }
    }

    private struct State: ~Copyable {
        var calls: [Int: Call] = [:]
        var nextID = 0
        /// Bumped at every change; a waiter waits for it to move.
        var version = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose grace ran out before they were registered.
        var expired: Set<Int> = []
        /// How long running calls are waited for, in real time, before it is a failure.
        var grace: Duration = .seconds(10)

        mutating func change(_ update: (inout Call) -> Void, call id: Int) -> [Waiter] {
            guard var call = calls[id] else { return [] }
            update(&call)
            calls[id] = call.isGone ? nil : call
            return changed()
        }

        mutating func changed() -> [Waiter] {
            version += 1
            let woken = Array(waiters.values)
            waiters = [:]
            return woken
        }
    }

    private let state = Mutex(State())

    /// How long running calls are waited for, in real time, before it is a test failure.
    var grace: Duration {
        get { state.withLock { $0.grace } }
        set { state.withLock { $0.grace = newValue } }
    }

    // MARK: ServiceCallTracking

    func begin(_ label: String) -> Int {
        let (id, woken) = state.withLock { state -> (Int, [Waiter]) in
            state.nextID += 1
            state.calls[state.nextID] = Call(label: label)
            return (state.nextID, state.changed())
        }
        for waiter in woken { waiter.wake() }
        return id
    }

    func run<Result: Sendable>(_ call: Int, _ work: @Sendable () async throws -> Result) async throws -> Result {
        defer {
            let woken = state.withLock { $0.change({ $0.isTaskDone = true }, call: call) }
            for waiter in woken { waiter.wake() }
        }
        return try await VirtualClock.$sleepWatcher.withValue(SleepWatcher(tracker: self, call: call)) {
            try await work()
        }
    }

    func posted(_ call: Int) {
        let woken = state.withLock { $0.change({ $0.isPosted = true }, call: call) }
        for waiter in woken { waiter.wake() }
    }

    func end(_ call: Int) {
        let woken = state.withLock { state -> [Waiter] in
            guard state.calls[call]?.isEnded == false else { return [] }
            return state.change({ $0.isEnded = true }, call: call)
        }
        for waiter in woken { waiter.wake() }
    }

    fileprivate func sleeps(_ call: Int, by delta: Int) {
        let woken = state.withLock { $0.change({ $0.sleeps += delta }, call: call) }
        for waiter in woken { waiter.wake() }
    }

    // MARK: Reading

    /// The calls still running, by label, and the version they were read at.
    func running() -> (labels: [String], version: Int) {
        state.withLock { state in
            let labels = state.calls.sorted { $0.key < $1.key }.filter { $0.value.isRunning }.map(\.value.description)
            return (labels, state.version)
        }
    }

    /// The calls that have not delivered their result and were not disposed (asleep ones
    /// included), by label.
    var unfinished: [String] {
        state.withLock { state in state.calls.sorted { $0.key < $1.key }.filter { !$0.value.isEnded }.map(\.value.label) }
    }

    /// Waits until something changed after `version`, or `grace` (real time) passed;
    /// returns whether something changed.
    func waitForChange(after version: Int, grace: Duration) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            let waiter = self.state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.expired.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.wake()
        }
        defer {
            timer.cancel()
            state.withLock { _ = $0.expired.remove(id) }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let registered = state.withLock { state -> Bool in
                guard state.version == version, state.expired.remove(id) == nil else { return false }
                state.waiters[id] = Waiter(continuation: continuation)
                return true
            }
            if !registered { continuation.resume() }
        }
        return state.withLock { $0.version != version }
    }

    /// The calls running now that were not reported before, by label; they are reported
    /// once (the scheduler's synchronous `start()`/`advance`, see ViewModelHarness+Settle.swift).
    func reportRunning() -> [String] {
        state.withLock { state in
            var running: [String] = []
            for (call, record) in state.calls.sorted(by: { $0.key < $1.key }) where record.isRunning && !record.isReported {
                state.calls[call]?.isReported = true
                running.append(record.description)
            }
            return running
        }
    }

    /// Counts a call's sleeps on a virtual clock (installed around its work by ``run(_:_:)``).
    private struct SleepWatcher: VirtualSleepWatcher {
        let tracker: ServiceCallTracker
        let call: Int

        func didSuspend() { tracker.sleeps(call, by: 1) }
        func didResume() { tracker.sleeps(call, by: -1) }
    }
}
