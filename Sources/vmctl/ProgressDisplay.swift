import JSONCore
import Posix
import VMProtocol

/// How `vmctl exec` shows an action's progress on standard error (standard output keeps
/// only the result).
final class ProgressDisplay {
    enum Style {
        /// A bar redrawn in place with a percentage (`[#####-----]  50% uploading`).
        case bar
        /// One line per report (`progress: 50% uploading`), for logs and pipes.
        case lines
        /// The `vm.progress` params, one compact JSON text per line (`--json`).
        case jsonLines

        /// The bar on a terminal, lines otherwise.
        static func forStandardError() -> Style {
            CurrentProcess.isTerminal(FileDescriptor.standardError) ? .bar : .lines
        }
    }

    /// Cells of the bar.
    static let width = 30

    private let style: Style
    /// Whether a bar is drawn and must be cleared before anything else is written.
    private var barShown = false

    init(style: Style) {
        self.style = style
    }

    /// Shows one report.
    func show(_ progress: VMProgressNotification.Params) {
        switch style {
        case .bar:
            CurrentProcess.writeToStandardError("\r\u{1B}[K" + Self.bar(progress))
            barShown = true
        case .lines:
            CurrentProcess.writeToStandardError("progress: " + Self.text(progress) + "\n")
        case .jsonLines:
            var object: JSONObject = [
                "request": progress.request, "instance": .string(progress.instance), "action": .string(progress.action),
                "completed": VMProgressNotification.number(progress.completed),
            ]
            if let total = progress.total { object["total"] = VMProgressNotification.number(total) }
            if let message = progress.message { object["message"] = .string(message) }
            CurrentProcess.writeToStandardError(JSONValue.object(object).encodedString() + "\n")
        }
    }

    /// Clears the bar, if one is drawn (before the result or an error is written).
    func finish() {
        guard barShown else { return }
        CurrentProcess.writeToStandardError("\r\u{1B}[K")
        barShown = false
    }

    /// `[###############---------------]  50% uploading`, or without a total
    /// `[?] 3 uploading`.
    static func bar(_ progress: VMProgressNotification.Params) -> String {
        guard let fraction = progress.fraction else { return "[?] " + text(progress) }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let cells = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(cells)] " + text(progress)
    }

    /// ` 50% uploading`, or `3 uploading` without a total (or `3 of 0`).
    static func text(_ progress: VMProgressNotification.Params) -> String {
        let amount: String
        if let fraction = progress.fraction {
            let percent = String(Int((fraction * 100).rounded(.down)))
            amount = String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%"
        } else {
            amount = VMProgressNotification.number(progress.completed).encodedString()
                + (progress.total.map { " of " + VMProgressNotification.number($0).encodedString() } ?? "")
        }
        return progress.message.map { amount + " " + $0 } ?? amount
    }
}
