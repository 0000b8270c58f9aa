import Testing
import VMTestSupport
@testable import VMTransport

/// Per-connection warnings are rate-limited as the out-of-descriptors line is (issue 31: ~900
/// lines for a burst of refused connections).
@Suite("Per-connection warnings are rate-limited", .offTheCooperativePool)
struct ConnectionWarningThrottleTests {
    @Test("30 connections refused over maxConnections write one warning line, not 30")
    func refusedBurstLogsOnce() throws {
        let harness = try ScriptedDaemon { $0.limits.maxConnections = 1 }
        defer { harness.stop() }
        let admitted = try harness.connect()
        defer { admitted.close() }
        try admitted.sendLine("[1]")
        #expect(try admitted.readLine() == "[1]")
        for _ in 0..<30 {
            let refused = try harness.connect()
            defer { refused.close() }
            #expect(try refused.readMessage()["error"]?["data"]?["limit"] == "maxConnections")
            #expect(try refused.waitForClose())
        }
        let lines = harness.daemon.log.all.filter { $0.contains("connection refused: limit maxConnections reached") }
        #expect(lines.count == 1)
    }

    @Test("one line per kind per 10 s; the next one written counts those held back")
    func throttleCountsWhatItHeldBack() {
        var throttle = LogThrottle()
        let second: UInt64 = 1_000_000_000
        #expect(throttle.admit("a", now: 100 * second) == 0)
        #expect(throttle.admit("a", now: 101 * second) == nil)
        #expect(throttle.admit("b", now: 101 * second) == 0)  // kinds are separate
        #expect(throttle.admit("a", now: 109 * second) == nil)
        #expect(throttle.admit("a", now: 110 * second) == 2)
        #expect(throttle.admit("a", now: 125 * second) == 0)
    }
}
