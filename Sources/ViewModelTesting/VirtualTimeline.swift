import ReactiveTesting
import ViewModelKit

/// Virtual time for ``TapePlayer``: runs a ``TestScheduler`` the way a harness's `settle()` and
/// `advance(by:)` do (ViewModelHarness+Settle.swift), but fails by throwing (a replay reports
/// a stuck service call as its failure, not as a test issue).
struct VirtualTimeline {
    let scheduler: TestScheduler
    let calls: ServiceCallTracker

    /// Runs what is due now until every tracked service call has answered or sleeps on the
    /// virtual clock; throws naming the calls still running in real time after `calls.grace`.
    func settle() async throws(TapePlayer.Failure) {
        while true {
            scheduler.advance()
            let (running, version) = calls.running()
            if running.isEmpty {
                if scheduler.pendingEnqueuedCount == 0 { return }
                continue
            }
            if scheduler.pendingEnqueuedCount > 0 { continue }
            if await !calls.waitForChange(after: version, grace: calls.grace) {
                let stuck = calls.running().labels
                guard !stuck.isEmpty else { continue }
                throw .divergence("after \(calls.grace) of real time, service calls still running and not sleeping on the virtual clock: \(stuck.joined(separator: ", "))")
            }
        }
    }

    /// Moves virtual time to `target`, settling at every due time on the way.
    func advance(to target: TestTime) async throws(TapePlayer.Failure) {
        try await settle()
        while let next = scheduler.nextScheduledTime, next <= target {
            scheduler.advance(to: next)
            try await settle()
        }
        if target > scheduler.clock { scheduler.advance(to: target) }
        try await settle()
    }
}
