/// A command line that does not fit the spec. Programs print ``description`` to standard
/// error and exit with ``exitCode`` (2, the conventional "usage error" status).
///
/// The first line says exactly what was wrong and, where it can, what was probably meant;
/// the next lines repeat the usage and where to read more:
///
/// ```
/// error: unknown option '--jsno'; did you mean '--json'?
/// usage: vmctl list [options]
/// Run 'vmctl help list' for more information.
/// ```
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with the words needed to say it.
    package enum Kind: Sendable, Hashable {
        /// An option no command in the path declares; with the nearest spellings.
        case unknownOption(String, suggestions: [String])
        /// An option of a subcommand given before that subcommand's name (`vmctl --id x create`).
        case optionBeforeSubcommand(String, owner: String)
        /// An unknown letter inside a cluster of short options, such as `x` in `-jxv`.
        case unknownOptionInCluster(String, cluster: String)
        /// A word in subcommand position that names no subcommand; with the nearest names.
        case unknownSubcommand(String, suggestions: [String])
        /// A command that has subcommands was given none; with the available names.
        case missingSubcommand(available: [String])
        /// A required positional argument is missing.
        case missingArgument(String)
        /// An option that takes a value came last, or before another option.
        case missingValue(option: String, valueName: String, nextWord: String?)
        /// A value (of an option or an argument) not among the allowed ones.
        case valueNotAllowed(name: String, value: String, allowed: [String])
        /// A value that had to be an integer and is not.
        case notAnInteger(name: String, value: String)
        /// More positional arguments than the command takes.
        case unexpectedArgument(String, maximum: Int)
        /// `--flag=value` for an option that takes no value.
        case flagWithValue(option: String, value: String)
        /// A single-value option given more than once.
        case duplicateOption(String)
    }

    /// What went wrong.
    package var kind: Kind
    /// The command words up to where the error was found, e.g. `["vmctl", "get"]`.
    package var commandPath: [String]
    /// The usage line of that command, e.g. `vmctl get [options] INSTANCE OUTPUT`.
    package var usage: String

    /// Creates an error.
    package init(_ kind: Kind, commandPath: [String], usage: String) {
        self.kind = kind
        self.commandPath = commandPath
        self.usage = usage
    }

    /// The exit status for a usage error: 2.
    package var exitCode: Int32 { 2 }

    /// The one-line message, without the `error: ` prefix.
    package var message: String {
        switch kind {
        case .unknownOption(let option, let suggestions):
            return "unknown option '\(option)'" + didYouMean(suggestions)
        case .optionBeforeSubcommand(let option, let owner):
            return "option '\(option)' belongs to '\(owner)'; write it after '\(owner)'"
        case .unknownOptionInCluster(let option, let cluster):
            return "unknown option '\(option)' in '\(cluster)'"
        case .unknownSubcommand(let word, let suggestions):
            return "unknown subcommand '\(word)' for '\(commandName)'" + didYouMean(suggestions)
        case .missingSubcommand(let available):
            return "'\(commandName)' needs a subcommand: one of \(available.joined(separator: ", "))"
        case .missingArgument(let name):
            return "missing argument \(name)"
        case .missingValue(let option, let valueName, let nextWord):
            guard let nextWord else { return "option '\(option)' needs a value: \(option) \(valueName)" }
            return "option '\(option)' needs a value but was followed by '\(nextWord)'; "
                + "write \(option)=\(nextWord) if that is the value"
        case .valueNotAllowed(let name, let value, let allowed):
            let nearest = Suggestions.closest(to: value, among: allowed)
            return "invalid value '\(value)' for \(name): expected one of "
                + allowed.joined(separator: ", ") + didYouMean(nearest)
        case .notAnInteger(let name, let value):
            return "invalid value '\(value)' for \(name): expected an integer"
        case .unexpectedArgument(let word, let maximum):
            let takes = switch maximum {
            case 0: "takes no arguments"
            case 1: "takes at most 1 argument"
            default: "takes at most \(maximum) arguments"
            }
            return "unexpected argument '\(word)': '\(commandName)' \(takes)"
        case .flagWithValue(let option, let value):
            return "option '\(option)' is a flag and takes no value (got '\(option)=\(value)')"
        case .duplicateOption(let option):
            return "option '\(option)' was given more than once; it takes a single value"
        }
    }

    /// The full text for standard error: message, usage line, and where to read more.
    package var description: String {
        "error: \(message)\nusage: \(usage)\nRun '\(helpCommand)' for more information."
    }

    private var commandName: String { commandPath.joined(separator: " ") }

    /// `vmctl --help` for the root, `vmctl help get` for a subcommand.
    private var helpCommand: String {
        guard let root = commandPath.first else { return "--help" }
        if commandPath.count == 1 { return root + " --help" }
        return ([root, "help"] + commandPath.dropFirst()).joined(separator: " ")
    }

    private func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : "; did you mean \(Suggestions.quotedList(suggestions))?"
    }
}
