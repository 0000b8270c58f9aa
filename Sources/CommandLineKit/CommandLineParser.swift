/// Parses `argv` against a ``CommandSpec``.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, `-nvalue`, clusters of short
/// flags `-abc` (the last may take a value), `--` to end options, and negative numbers
/// (`-5`, `-0.5`) as values and arguments. Options of a command are also accepted after any of
/// its subcommands. `--help`/`-h` anywhere, or `help [SUBCOMMAND...]` as the root's first word,
/// returns a result with ``ParsedCommand/isHelpRequested`` set.
package struct CommandLineParser: Sendable {
    /// The root command; its name is the program name.
    package var root: CommandSpec

    /// Creates a parser for a root command.
    package init(root: CommandSpec) {
        self.root = root
    }

    /// Parses the arguments after the program name.
    /// - Throws: ``UsageError`` saying precisely what does not fit the spec.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var state = ParserState(root: root)
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if state.optionsEnded {
                // `--` ends options, not the command path: `vmctl -- send c1 -x` still selects `send`.
                if state.expectsSubcommand {
                    try enterSubcommand(word, arguments, &index, &state)
                } else {
                    state.words.append(word)
                }
                continue
            }
            if word == "--" {
                state.optionsEnded = true
            } else if word == "--help" || word == "-h" {
                state.isHelpRequested = true
            } else if word.hasPrefix("--") {
                try parseLong(word, arguments, &index, &state)
            } else if word.hasPrefix("-") && word.count > 1 && !Self.looksNumeric(word) {
                try parseShortCluster(word, arguments, &index, &state)
            } else if state.expectsSubcommand {
                try enterSubcommand(word, arguments, &index, &state)
                if state.isHelpRequested && state.helpViaSubcommand { break }
            } else {
                state.words.append(word)
            }
        }
        return try state.finish()
    }

    // MARK: - Options

    private func parseLong(
        _ word: String, _ arguments: [String], _ index: inout Int, _ state: inout ParserState
    ) throws(UsageError) {
        let body = word.dropFirst(2)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }
        guard let option = state.options.first(where: { $0.long == name }) else {
            let candidates = state.options.filter { !$0.isHidden }.map(\.long) + ["help"]
            let suggestions = Suggestions.closest(to: name, among: candidates).map { "--" + $0 }
            if suggestions.isEmpty, let owner = Self.descendant(of: state.chain, declaring: name) {
                throw state.error(.optionBeforeSubcommand("--" + name, owner: owner))
            }
            throw state.error(.unknownOption("--" + name, suggestions: suggestions))
        }
        if option.kind == .flag {
            if let inlineValue {
                throw state.error(.flagWithValue(option: option.displayName, value: inlineValue))
            }
            state.record(option, value: "")
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            value = try takeValue(for: option, arguments, &index, state)
        }
        try state.record(checked: value, for: option)
    }

    private func parseShortCluster(
        _ word: String, _ arguments: [String], _ index: inout Int, _ state: inout ParserState
    ) throws(UsageError) {
        var rest = word.dropFirst()
        while let letter = rest.first {
            rest = rest.dropFirst()
            guard let option = state.options.first(where: { $0.short == letter }) else {
                if word.count > 2 { throw state.error(.unknownOptionInCluster("-\(letter)", cluster: word)) }
                throw state.error(.unknownOption("-\(letter)", suggestions: []))
            }
            if option.kind == .flag {
                state.record(option, value: "")
                continue
            }
            // A value option consumes the rest of the cluster (`-sPATH`, `-s=PATH`) or the next word.
            let attached = rest.first == "=" ? rest.dropFirst() : rest
            let value: String
            if attached.isEmpty {
                value = try takeValue(for: option, arguments, &index, state)
            } else {
                value = String(attached)
            }
            try state.record(checked: value, for: option)
            return
        }
    }

    /// The next word as the value of `option`, unless it is missing or looks like an option.
    private func takeValue(
        for option: OptionSpec, _ arguments: [String], _ index: inout Int, _ state: ParserState
    ) throws(UsageError) -> String {
        guard index < arguments.count else {
            throw state.error(.missingValue(option: option.displayName, valueName: option.valueName, nextWord: nil))
        }
        let next = arguments[index]
        if next.hasPrefix("-") && next.count > 1 && !Self.looksNumeric(next) {
            throw state.error(.missingValue(option: option.displayName, valueName: option.valueName, nextWord: next))
        }
        index += 1
        return next
    }

    // MARK: - Subcommands

    private func enterSubcommand(
        _ word: String, _ arguments: [String], _ index: inout Int, _ state: inout ParserState
    ) throws(UsageError) {
        if let subcommand = state.current.subcommand(named: word) {
            state.enter(subcommand)
            return
        }
        if word == "help" && state.chain.count == 1 {
            // `help a b` shows help for `a b`: the remaining words are a subcommand path.
            state.isHelpRequested = true
            state.helpViaSubcommand = true
            while index < arguments.count {
                let name = arguments[index]
                index += 1
                if name.hasPrefix("-") { continue }  // `help get --json`: options do not matter here
                guard let subcommand = state.current.subcommand(named: name) else {
                    throw state.unknownSubcommand(name)
                }
                state.enter(subcommand)
            }
            return
        }
        throw state.unknownSubcommand(word)
    }

    /// The full name (`vmctl create`) of the first subcommand below `chain` that declares the
    /// option `long`, searched breadth first.
    static func descendant(of chain: [CommandSpec], declaring long: String) -> String? {
        var queue = [(chain.map(\.name), chain[chain.count - 1])]
        while !queue.isEmpty {
            let (path, command) = queue.removeFirst()
            for subcommand in command.subcommands where !subcommand.isHidden {
                if subcommand.options.contains(where: { $0.long == long && !$0.isHidden }) {
                    return (path + [subcommand.name]).joined(separator: " ")
                }
                queue.append((path + [subcommand.name], subcommand))
            }
        }
        return nil
    }

    /// `-5`, `-12`, `-0.5`, `-1e3`: a word starting with a dash that is a number, not an option.
    static func looksNumeric(_ word: String) -> Bool {
        let body = word.utf8.dropFirst()
        guard let first = body.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: ".")
        else { return false }
        return body.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "_")
        }
    }
}
