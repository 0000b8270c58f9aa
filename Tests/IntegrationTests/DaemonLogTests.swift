import Testing
import VMTestSupport
@testable import VMTransport

@Suite("Daemon log lines", .offTheCooperativePool)
struct DaemonLogTests {
    private let time: Int64 = 1_700_000_000_123_000_000  // 2023-11-14T22:13:20.123Z

    @Test("plain lines carry a UTC timestamp, the level, the message and key=value fields")
    func plain() {
        let log = DaemonLog(threshold: .debug, format: .plain, write: { _ in })
        let line = log.render(.info, "connection opened", ["connection": "c1", "pid": 42, "reason": "peer closed"], time: time)
        #expect(line == "2023-11-14T22:13:20.123Z info: connection opened connection=c1 pid=42 reason=\"peer closed\"\n")
    }

    @Test("under journald (JOURNAL_STREAM) lines start with the syslog priority instead")
    func journal() {
        let log = DaemonLog.forProcess(threshold: .debug, format: .plain, environment: ["JOURNAL_STREAM": "8:1234"])
        #expect(log.render(.warning, "limit reached", [:], time: time) == "<4>limit reached\n")
        #expect(log.render(.error, "x", [:], time: time).hasPrefix("<3>"))
        #expect(log.render(.debug, "x", [:], time: time).hasPrefix("<7>"))
    }

    @Test("--log-format json writes one object per line with typed fields")
    func json() {
        let log = DaemonLog(threshold: .debug, format: .json, write: { _ in })
        let line = log.render(.notice, "say \"hi\"", ["uid": 1000, "socket": "/run/a b"], time: time)
        #expect(line == #"{"time":"2023-11-14T22:13:20.123Z","level":"notice","message":"say \"hi\"","uid":1000,"socket":"/run/a b"}"# + "\n")
    }

    @Test("a peer's newline cannot split a log line")
    func oneLine() {
        let log = DaemonLog(threshold: .debug, format: .plain, write: { _ in })
        #expect(log.render(.info, "a\nb", ["f": "c\nd"], time: time).filter { $0 == "\n" }.count == 1)
    }

    @Test("lines below the threshold are not written")
    func threshold() {
        let log = DaemonLog(threshold: .warning, format: .plain, write: { _ in })
        #expect(log.isEnabled(.error))
        #expect(log.isEnabled(.warning))
        #expect(!log.isEnabled(.info))
    }

    @Test("civil dates across leap years and eras", arguments: [
        (Int64(0), "1970-01-01"), (Int64(11_016), "2000-02-29"), (Int64(11_017), "2000-03-01"),
        (Int64(-1), "1969-12-31"), (Int64(19_782), "2024-02-29"), (Int64(47_540), "2100-02-28"),
    ])
    func civilDates(days: Int64, expected: String) {
        let (year, month, day) = UTCTimestamp.civilDate(daysSinceEpoch: days)
        let text = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        #expect(text == expected)
    }
}
