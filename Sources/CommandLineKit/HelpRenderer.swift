/// Renders `--help` text for any command of a spec: summary, usage line, discussion,
/// subcommands, arguments, options (with defaults, allowed values and environment variables),
/// inherited options, examples and extra sections, wrapped to a width.
///
/// ```swift
/// let parsed = try CommandLineParser(root: spec).parse(arguments)
/// if parsed.isHelpRequested {
///     print(HelpRenderer(root: spec).help(for: parsed.path), terminator: "")
/// }
/// ```
package struct HelpRenderer: Sendable {
    /// The root command.
    package var root: CommandSpec
    /// The column limit; 80 unless told otherwise.
    package var width: Int

    /// Creates a renderer.
    package init(root: CommandSpec, width: Int = 80) {
        self.root = root
        self.width = width
    }

    /// The help text, ending with a newline, of the command at `path` (subcommand names below
    /// the root). Unknown names at the end of the path are ignored: the deepest known command
    /// is described.
    package func help(for path: [String]) -> String {
        var chain = [root]
        for name in path {
            guard let next = chain[chain.count - 1].subcommand(named: name) else { break }
            chain.append(next)
        }
        return render(chain).joined(separator: "\n") + "\n"
    }

    private func render(_ chain: [CommandSpec]) -> [String] {
        let command = chain[chain.count - 1]
        var sections: [[String]] = []
        if !command.summary.isEmpty {
            sections.append(TextLayout.wrap(command.summary, width: width))
        }
        sections.append(TextLayout.wrap(UsageLine.text(for: chain), width: width, firstPrefix: "Usage: ", prefix: "         "))
        if !command.discussion.isEmpty {
            sections.append(TextLayout.wrap(command.discussion, width: width))
        }
        let subcommands = subcommandRows(of: command, isRoot: chain.count == 1)
        if !subcommands.isEmpty {
            sections.append(["Subcommands:"] + TextLayout.table(subcommands, width: width))
        }
        if !command.arguments.isEmpty {
            let rows = command.arguments.map { argument in
                (term: argument.name, definition: annotated(argument.help, [oneOf(argument.allowedValues)]))
            }
            sections.append(["Arguments:"] + TextLayout.table(rows, width: width))
        }
        let own = command.options.filter { !$0.isHidden }
        let ownNames = Set(own.map(\.long))
        let inherited = CommandSpec.options(inEffectFor: Array(chain.dropLast()))
            .filter { !$0.isHidden && !ownNames.contains($0.long) }
        // --help belongs with the command's own options, so a root lists it under "Options".
        let helpRow = (term: "-h, --help", definition: "Show this help.")
        let ownRows = own.map(optionRow) + [helpRow]
        let inheritedRows = inherited.map(optionRow)
        let optionColumn = TextLayout.termWidth(of: (ownRows + inheritedRows).map(\.term))
        sections.append(["Options:"] + TextLayout.table(ownRows, width: width, termWidth: optionColumn))
        if !inheritedRows.isEmpty {
            sections.append(["Global options:"] + TextLayout.table(inheritedRows, width: width, termWidth: optionColumn))
        }
        if !command.examples.isEmpty {
            var lines = ["Examples:"]
            for example in command.examples {
                lines += TextLayout.wrap(example.commandLine, width: width, firstPrefix: "  ", prefix: "    ")
                lines += TextLayout.wrap(example.explanation, width: width, firstPrefix: "      ", prefix: "      ")
            }
            sections.append(lines)
        }
        for section in command.sections {
            let rows = section.rows.map { (term: $0.term, definition: $0.definition) }
            sections.append(["\(section.title):"] + TextLayout.table(rows, width: width))
        }
        if !subcommands.isEmpty {
            let helpWords = ([root.name, "help"] + chain.dropFirst().map(\.name) + ["SUBCOMMAND"])
            sections.append(TextLayout.wrap(
                "Run '\(helpWords.joined(separator: " "))' for details on a subcommand.", width: width))
        }
        return Array(sections.joined(separator: [""]))
    }

    private func subcommandRows(of command: CommandSpec, isRoot: Bool) -> [(term: String, definition: String)] {
        var rows = command.subcommands.filter { !$0.isHidden }.map { (term: $0.name, definition: $0.summary) }
        if isRoot && !rows.isEmpty {
            rows.append((term: "help", definition: "Show help for a subcommand."))
        }
        return rows
    }

    private func optionRow(_ option: OptionSpec) -> (term: String, definition: String) {
        var term = option.short.map { "-\($0), " } ?? "    "
        term += option.displayName
        if option.kind != .flag { term += " " + option.valueName }
        let notes = [
            oneOf(option.allowedValues),
            option.defaultValue.map { "default: \($0)" },
            option.environment.map { "env: \($0)" },
            option.kind == .repeatable ? "repeatable" : nil,
        ]
        return (term: term, definition: annotated(option.help, notes))
    }

    private func oneOf(_ values: [String]) -> String? {
        values.isEmpty ? nil : "one of: " + values.joined(separator: ", ")
    }

    /// `help (note; note)`, or just `help` when there are no notes.
    private func annotated(_ help: String, _ notes: [String?]) -> String {
        let present = notes.compactMap { $0 }
        guard !present.isEmpty else { return help }
        let suffix = "(" + present.joined(separator: "; ") + ")"
        return help.isEmpty ? suffix : help + " " + suffix
    }
}
