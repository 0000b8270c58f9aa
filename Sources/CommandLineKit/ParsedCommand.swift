/// The result of parsing a command line against a ``CommandSpec``: which command was selected
/// and the options and arguments it was given, with typed accessors.
///
/// Options are looked up by their long name without dashes (`value("socket")`), arguments by
/// their declared name (`positional("INSTANCE")`).
package struct ParsedCommand: Sendable, Hashable {
    /// The subcommand names below the root, e.g. `["daemon", "start"]`; empty for the root.
    package var path: [String]
    /// The spec of the selected command (the last one in ``path``, or the root).
    package var command: CommandSpec
    /// True when `--help`, `-h` or `help [SUBCOMMAND]` was given. Nothing else was validated:
    /// print ``HelpRenderer/help(for:)`` for ``path`` and exit 0.
    package var isHelpRequested: Bool
    /// The values of each option given on the command line, keyed by long name; a flag has one
    /// empty string per occurrence.
    package var optionValues: [String: [String]]
    /// The words of each positional argument, keyed by argument name.
    package var argumentValues: [String: [String]]
    /// The root's name then ``path``: `["vmctl", "daemon", "start"]`; used in messages.
    package var commandPath: [String]
    /// The usage line of the selected command, used by errors raised from the accessors.
    package var usage: String

    /// Creates a parsed command; normally made by ``CommandLineParser``.
    package init(
        path: [String], command: CommandSpec, isHelpRequested: Bool = false,
        optionValues: [String: [String]] = [:], argumentValues: [String: [String]] = [:],
        commandPath: [String], usage: String
    ) {
        self.path = path
        self.command = command
        self.isHelpRequested = isHelpRequested
        self.optionValues = optionValues
        self.argumentValues = argumentValues
        self.commandPath = commandPath
        self.usage = usage
    }

    /// Whether the option was given on the command line (any kind).
    package func isPresent(_ long: String) -> Bool { optionValues[long] != nil }

    /// Whether the flag was given.
    package func flag(_ long: String) -> Bool { optionValues[long] != nil }

    /// The value given for a single-value option (the last one, for a repeatable option), or nil.
    /// Defaults are not applied here; ``ConfigurationResolver`` layers them.
    package func value(_ long: String) -> String? { optionValues[long]?.last }

    /// Every value given for a repeatable option, in command-line order.
    package func values(_ long: String) -> [String] { optionValues[long] ?? [] }

    /// The value of an option parsed as an integer; nil when the option was not given.
    /// - Throws: ``UsageError`` (`notAnInteger`) naming the option and the bad value.
    package func int(_ long: String) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        return try integer(text, name: "--" + long)
    }

    /// The word given for a required or optional positional argument, or nil.
    package func positional(_ name: String) -> String? { argumentValues[name]?.first }

    /// Every word given for a variadic positional argument.
    package func positionals(_ name: String) -> [String] { argumentValues[name] ?? [] }

    /// A positional argument parsed as an integer; nil when it was not given.
    /// - Throws: ``UsageError`` (`notAnInteger`) naming the argument and the bad value.
    package func intPositional(_ name: String) throws(UsageError) -> Int? {
        guard let text = positional(name) else { return nil }
        return try integer(text, name: name)
    }

    private func integer(_ text: String, name: String) throws(UsageError) -> Int {
        guard let number = Int(text) else {
            throw UsageError(.notAnInteger(name: name, value: text), commandPath: commandPath, usage: usage)
        }
        return number
    }
}
