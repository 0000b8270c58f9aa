import ReactiveCore
import ReactiveTesting
import Testing

@Suite("VirtualClock: a Swift Clock on a TestScheduler's virtual time")
struct VirtualClockTests {
    @Test("now is the scheduler's virtual time, in its resolution")
    func nowFollowsTheScheduler() {
        let scheduler = TestScheduler(resolution: .milliseconds(10))
        let clock = scheduler.virtualClock
        #expect(clock.now == .init(offset: .zero))
        scheduler.advance(to: 25)
        #expect(clock.now == .init(offset: .milliseconds(250)))
        #expect(clock.minimumResolution == .milliseconds(10))
    }

    @Test("a sleep resumes when virtual time reaches its deadline, not a tick before")
    func sleepResumesAtTheDeadline() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let sleeper = Task {
            try await clock.sleep(for: .milliseconds(300))
            return clock.now
        }
        #expect(await scheduler.waitForEnqueued(), "the sleep registers its wake-up through the inbox")
        scheduler.advance(to: 299)
        #expect(scheduler.nextScheduledTime == 300, "still asleep at 299")
        scheduler.advance(to: 300)
        #expect(scheduler.nextScheduledTime == nil)
        #expect(try await sleeper.value == .init(offset: .milliseconds(300)))
    }

    @Test("cancelling a sleeping task ends its sleep at once with CancellationError, as Task.sleep does")
    func cancellationEndsTheSleep() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        #expect(await scheduler.waitForEnqueued())
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(scheduler.clock == 0, "no virtual time was needed")
    }

    @Test("a task already cancelled does not sleep at all")
    func alreadyCancelled() async {
        let scheduler = TestScheduler()
        let clock = scheduler.virtualClock
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(scheduler.pendingEnqueuedCount == 0)
    }
}
