import JSONCore
import Posix

/// The daemon's log: one line per significant event on standard error, filtered by level.
///
/// Three spellings: plain text with a timestamp for a terminal; the same text behind a `<N>`
/// syslog priority prefix when standard error is the journal (journald adds its own
/// timestamp and turns the prefix into the entry's priority); one JSON object per line with
/// `--log-format json`. Each line is written with a single `write`, so lines from the loop
/// thread and from other threads never interleave mid-line.
package struct DaemonLog: Sendable {
    package let threshold: LogLevel
    package let format: LogFormat
    /// Prefix lines with `<N>` (journald's stream protocol) instead of a timestamp.
    package let journalPrefixes: Bool
    private let write: @Sendable (String) -> Void

    /// A log writing to `write` (standard error by default).
    package init(
        threshold: LogLevel = .info, format: LogFormat = .plain, journalPrefixes: Bool = false,
        write: @escaping @Sendable (String) -> Void = { CurrentProcess.writeToStandardError($0) }
    ) {
        self.threshold = threshold
        self.format = format
        self.journalPrefixes = journalPrefixes
        self.write = write
    }

    /// The log `vmd` uses: journald prefixes when `JOURNAL_STREAM` is set (systemd sets it when
    /// stderr is connected to the journal).
    package static func forProcess(threshold: LogLevel, format: LogFormat, environment: [String: String]) -> DaemonLog {
        let journal = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
        return DaemonLog(threshold: threshold, format: format, journalPrefixes: journal)
    }

    /// Whether lines of `level` are written (check before building expensive fields).
    package func isEnabled(_ level: LogLevel) -> Bool { level <= threshold }

    package func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.error, message, fields) }
    package func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.warning, message, fields) }
    package func notice(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.notice, message, fields) }
    package func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.info, message, fields) }
    package func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.debug, message, fields) }

    /// Writes one line when `level` passes the threshold.
    package func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        guard isEnabled(level) else { return }
        write(render(level, message, fields, time: WallClock.nanosecondsSinceEpoch()))
    }

    /// The line for an event, newline included (separate from writing, for tests).
    func render(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue>, time: Int64) -> String {
        switch format {
        case .json:
            var bytes: [UInt8] = []
            bytes.append(contentsOf: #"{"time":"#.utf8)
            JSONSerializer.appendString(UTCTimestamp.format(nanosecondsSinceEpoch: time), to: &bytes)
            bytes.append(contentsOf: #","level":"#.utf8)
            JSONSerializer.appendString(level.rawValue, to: &bytes)
            bytes.append(contentsOf: #","message":"#.utf8)
            JSONSerializer.appendString(message, to: &bytes)
            for (key, value) in fields {
                bytes.append(UInt8(ascii: ","))
                JSONSerializer.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                switch value {
                case .string(let text): JSONSerializer.appendString(text, to: &bytes)
                case .integer(let number): JSONSerializer.appendInteger(number, to: &bytes)
                }
            }
            bytes.append(contentsOf: "}\n".utf8)
            if journalPrefixes { return "<\(level.syslogPriority)>" + String(decoding: bytes, as: UTF8.self) }
            return String(decoding: bytes, as: UTF8.self)
        case .plain:
            var line = journalPrefixes
                ? "<\(level.syslogPriority)>"
                : UTCTimestamp.format(nanosecondsSinceEpoch: time) + " " + level.rawValue + ": "
            line += Self.singleLine(message)
            for (key, value) in fields {
                line += " " + key + "=" + Self.plainValue(value)
            }
            return line + "\n"
        }
    }

    /// A field value that stays one token: quoted when it holds spaces, quotes or `=`.
    private static func plainValue(_ value: LogValue) -> String {
        guard case .string(let text) = value else { return value.description }
        let needsQuotes = text.isEmpty || text.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }
        guard needsQuotes else { return text }
        var bytes: [UInt8] = []
        JSONSerializer.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A log line must stay one line, whatever a peer put in a message we quote.
    private static func singleLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
