import Posix

/// Standard output and standard error, with colour decided once: only on a terminal, and
/// never when `NO_COLOR` is set to anything but the empty string (no-color.org).
///
/// Output is buffered and written with one `write` per ``flush()`` (once at exit for one-shot
/// commands, once per event for `watch` and `monitor`), not through C stdio, so a pipe sees
/// each event as soon as it happens.
final class Console {
    /// fd 1, borrowed: released (not closed) in deinit.
    private let standardOutput = FileDescriptor(adopting: FileDescriptor.standardOutput)
    private var pending: [UInt8] = []
    let colourOut: Bool
    let colourError: Bool

    deinit { _ = standardOutput.release() }  // fd 1 belongs to the process, not to us

    init(environment: [String: String]) {
        let noColour = !(environment["NO_COLOR"] ?? "").isEmpty
        colourOut = !noColour && CurrentProcess.isTerminal(FileDescriptor.standardOutput)
        colourError = !noColour && CurrentProcess.isTerminal(FileDescriptor.standardError)
    }

    /// Queues one line (a newline is added).
    func line(_ text: String) {
        pending.append(contentsOf: text.utf8)
        pending.append(UInt8(ascii: "\n"))
    }

    /// Writes what was queued. A closed pipe (`vmctl watch | head -1`) ends the process with
    /// SIGPIPE as for any Unix filter.
    func flush() {
        guard !pending.isEmpty else { return }
        try? standardOutput.writeAll(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes `error: MESSAGE` (and any further lines) to standard error at once.
    func error(_ message: String, hints: [String] = []) {
        flush()
        let label = colourError ? Style.red + Style.bold + "error:" + Style.reset : "error:"
        var text = "\(label) \(message)\n"
        for hint in hints { text += hint + "\n" }
        CurrentProcess.writeToStandardError(text)
    }

    /// Writes a note to standard error (things that are not the result).
    func note(_ message: String) {
        flush()
        CurrentProcess.writeToStandardError(message + "\n")
    }

    /// `text` in `style` when standard output is coloured.
    func styled(_ text: String, _ style: String) -> String {
        colourOut ? style + text + Style.reset : text
    }
}

/// ANSI SGR sequences.
enum Style {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let yellow = "\u{1B}[33m"
    static let cyan = "\u{1B}[36m"
}
