import Posix
import Testing

@Suite("CurrentProcess.sleep")
struct CurrentProcessSleepTests {
    @Test("sleeping blocks the thread for at least the duration asked")
    func sleepsAtLeastTheDuration() {
        let start = MonotonicClock.nanoseconds()
        CurrentProcess.sleep(for: .milliseconds(30))
        #expect(MonotonicClock.nanoseconds() - start >= 30_000_000)
    }

    @Test("a zero or negative duration returns at once")
    func zeroReturns() {
        let start = MonotonicClock.nanoseconds()
        CurrentProcess.sleep(for: .zero)
        CurrentProcess.sleep(for: .milliseconds(-5))
        #expect(MonotonicClock.nanoseconds() - start < 1_000_000_000)
    }
}
