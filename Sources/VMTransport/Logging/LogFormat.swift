/// How log lines are spelled (`--log-format`).
package enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// One line of text per event (with a `<N>` priority prefix instead of the timestamp when
    /// stderr is the journal, `JOURNAL_STREAM` set).
    case plain
    /// One JSON object per line: `time`, `level`, `message`, then the event's fields.
    case json
}
