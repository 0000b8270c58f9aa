import JSONCore
import VMClient

/// The daemon's error messages end with advice in protocol terms ("vm.list shows the live
/// instances"), which is right for a client author and wrong for a vmctl user: this rewords
/// that advice as the vmctl command that does it. The wire stays as it is; the symbolic
/// name still follows the message.
enum RemoteErrorWording {
    static func failure(_ error: VMRemoteError) -> CommandFailure {
        var message = error.message
        var hints: [String] = []
        let instance = error.data?["instance"]?.stringValue
        switch error.name {
        case "unknownInstance":
            message = cut(message, at: "; vm.list")
            hints = ["'vmctl list' shows the live instances."]
        case "unknownType":
            message = cut(message, at: " (vm.types describes them)")
            hints = ["'vmctl types' describes them."]
        case "notStateOutput":
            message = cut(message, at: "; watch it with vm.subscribe")
            let output = error.data?["output"]?.stringValue ?? "OUTPUT"
            hints = ["Watch it with 'vmctl watch \(instance ?? "INSTANCE") \(output)'."]
        default:
            break
        }
        let named = error.name.map { "\(message) (\($0))" } ?? "\(message) (code \(error.code))"
        return CommandFailure(status: .daemonError, message: named, hints: hints)
    }

    /// `text` up to `marker`, ended with a period; all of `text` when the marker is absent.
    private static func cut(_ text: String, at marker: String) -> String {
        var start = text.startIndex
        while start < text.endIndex {
            if text[start...].hasPrefix(marker) { return String(text[..<start]) + "." }
            start = text.index(after: start)
        }
        return text
    }
}
