import ReactiveTesting
import ViewModelKit

/// Virtual time with async service calls: runs a ``TestScheduler`` only when none of the
/// tracked calls can progress without it. The one settle loop of ``ViewModelHarness``'s
/// `settle()` and `advance(by:)` (ViewModelHarness+Settle.swift) and of ``TapePlayer``; each
/// reports calls that do not settle its own way (a test issue, a replay's failure).
struct VirtualTimeline {
    let scheduler: TestScheduler
    let calls: ServiceCallTracker

    /// Runs what is due now until every tracked service call has answered or sleeps on the
    /// virtual clock; the clock does not move. `nil` when settled, else the calls still
    /// running in real time after `calls.grace`, named.
    func settle() async -> [String]? {
        while true {
            scheduler.advance()
            let (running, version) = calls.running()
            if running.isEmpty {
                // A wake-up or a result that arrived since is still to run.
                if scheduler.pendingEnqueuedCount == 0 { return nil }
                continue
            }
            if scheduler.pendingEnqueuedCount > 0 { continue }
            if await !calls.waitForChange(after: version, grace: calls.grace) {
                let stuck = calls.running().labels
                guard !stuck.isEmpty else { continue }
                return stuck
            }
        }
    }

    /// Moves virtual time to `target`, settling at every due time on the way: a fake sleeping
    /// 300 ms answers at exactly 300. Stops where a call does not settle, returning it.
    func advance(to target: TestTime) async -> [String]? {
        if let stuck = await settle() { return stuck }
        while let next = scheduler.nextScheduledTime, next <= target {
            scheduler.advance(to: next)
            if let stuck = await settle() { return stuck }
        }
        if target > scheduler.clock { scheduler.advance(to: target) }
        return await settle()
    }
}
