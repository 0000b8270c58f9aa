/// What ``CommandLineParser`` has learned so far while walking one command line.
struct ParserState {
    /// The commands selected so far, root first.
    private(set) var chain: [CommandSpec]
    /// The options in effect for the current command, inherited ones included.
    private(set) var options: [OptionSpec]
    /// Option values by long name, in command-line order.
    private var optionValues: [String: [String]] = [:]
    /// Positional words for the current command, in order.
    var words: [String] = []
    var optionsEnded = false
    var isHelpRequested = false
    /// Set when help came from the `help` subcommand, which consumes the rest of the line.
    var helpViaSubcommand = false

    init(root: CommandSpec) {
        chain = [root]
        options = CommandSpec.options(inEffectFor: chain)
    }

    var current: CommandSpec { chain[chain.count - 1] }

    /// A word in positional position names a subcommand while the command has subcommands and
    /// no positional words were seen.
    var expectsSubcommand: Bool { !current.subcommands.isEmpty && words.isEmpty }

    mutating func enter(_ subcommand: CommandSpec) {
        chain.append(subcommand)
        options = CommandSpec.options(inEffectFor: chain)
    }

    mutating func record(_ option: OptionSpec, value: String) {
        optionValues[option.long, default: []].append(value)
    }

    /// Records an option value after checking it against the allowed values and, for a
    /// single-value option, that it was not given before.
    mutating func record(checked value: String, for option: OptionSpec) throws(UsageError) {
        if option.kind == .value && optionValues[option.long] != nil {
            throw error(.duplicateOption(option.displayName))
        }
        if !option.allowedValues.isEmpty && !option.allowedValues.contains(value) {
            throw error(.valueNotAllowed(name: option.displayName, value: value, allowed: option.allowedValues))
        }
        record(option, value: value)
    }

    func error(_ kind: UsageError.Kind) -> UsageError {
        UsageError(kind, commandPath: chain.map(\.name), usage: UsageLine.text(for: chain))
    }

    func unknownSubcommand(_ word: String) -> UsageError {
        var candidates = current.subcommands.filter { !$0.isHidden }.map(\.name)
        if chain.count == 1 { candidates.append("help") }
        return error(.unknownSubcommand(word, suggestions: Suggestions.closest(to: word, among: candidates)))
    }

    /// Validates what was collected and assigns positional words to the declared arguments.
    func finish() throws(UsageError) -> ParsedCommand {
        var parsed = ParsedCommand(
            path: chain.dropFirst().map(\.name), command: current,
            isHelpRequested: isHelpRequested, optionValues: optionValues,
            commandPath: chain.map(\.name), usage: UsageLine.text(for: chain))
        if isHelpRequested { return parsed }
        if !current.subcommands.isEmpty && words.isEmpty {
            throw error(.missingSubcommand(available: current.subcommands.filter { !$0.isHidden }.map(\.name)))
        }
        var remaining = words[...]
        for argument in current.arguments {
            let taken: [String]
            switch argument.arity {
            case .required:
                guard let word = remaining.popFirst() else { throw error(.missingArgument(argument.name)) }
                taken = [word]
            case .optional:
                taken = remaining.popFirst().map { [$0] } ?? []
            case .variadic:
                taken = Array(remaining)
                remaining = []
            }
            if !argument.allowedValues.isEmpty,
                let bad = taken.first(where: { !argument.allowedValues.contains($0) })
            {
                throw error(.valueNotAllowed(name: argument.name, value: bad, allowed: argument.allowedValues))
            }
            if !taken.isEmpty { parsed.argumentValues[argument.name] = taken }
        }
        if let extra = remaining.first {
            let maximum = current.arguments.contains { $0.arity == .variadic } ? Int.max : current.arguments.count
            throw error(.unexpectedArgument(extra, maximum: maximum))
        }
        return parsed
    }
}
