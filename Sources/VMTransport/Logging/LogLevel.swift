/// How important a log line is; the order is the order of severity (`--log-level`).
package enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    case error, warning, notice, info, debug

    /// The syslog priority journald reads from a `<N>` line prefix.
    package var syslogPriority: Int {
        switch self {
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug: 7
        }
    }

    /// `error < warning < ... < debug`: a line is written when its level is `<=` the threshold.
    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.syslogPriority < rhs.syslogPriority }
}
