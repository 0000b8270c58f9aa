/// The spec flattened into what a completion script needs per command path: its subcommands,
/// the options in effect (inherited ones included), and the fixed values of its arguments.
/// Hidden commands and options are left out.
struct CompletionModel {
    struct Node {
        /// Subcommand names below the root joined by spaces; "" for the root.
        var key: String
        var subcommands: [(name: String, summary: String)]
        var options: [OptionSpec]
        /// The allowed values of the command's arguments, offered where a word is expected.
        var argumentValues: [String]

        /// Every spelling of the options that take a value: `--socket`, `-s`.
        var valueOptionSpellings: [String] {
            options.filter { $0.kind != .flag }.flatMap(Self.spellings)
        }

        static func spellings(_ option: OptionSpec) -> [String] {
            [option.displayName] + (option.short.map { ["-\($0)"] } ?? [])
        }
    }

    var program: String
    var nodes: [Node]
    /// The hidden command that completes live words (see ``CompletionScript``), if any.
    var dynamicCommand: String?

    init(root: CommandSpec) {
        program = root.name
        nodes = []
        collect([root], into: &nodes)
        // `help SUBCOMMAND` completes the root's subcommands.
        if let rootNode = nodes.first, !rootNode.subcommands.isEmpty {
            nodes.append(Node(
                key: "help", subcommands: rootNode.subcommands.filter { $0.name != "help" },
                options: rootNode.options, argumentValues: []))
        }
    }

    private func collect(_ chain: [CommandSpec], into nodes: inout [Node]) {
        let command = chain[chain.count - 1]
        var subcommands = command.subcommands.filter { !$0.isHidden }.map { (name: $0.name, summary: $0.summary) }
        if chain.count == 1 && !subcommands.isEmpty {
            subcommands.append((name: "help", summary: "Show help for a subcommand."))
        }
        let help = OptionSpec.flag("help", short: "h", help: "Show help.")
        nodes.append(Node(
            key: chain.dropFirst().map(\.name).joined(separator: " "),
            subcommands: subcommands,
            options: CommandSpec.options(inEffectFor: chain).filter { !$0.isHidden } + [help],
            argumentValues: command.arguments.flatMap(\.allowedValues)))
        for subcommand in command.subcommands where !subcommand.isHidden {
            collect(chain + [subcommand], into: &nodes)
        }
    }

    /// The program name made safe for a shell function name: `vm-ctl` → `vm_ctl`.
    var functionStem: String {
        String(program.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
    }

    /// `text` in POSIX single quotes (bash, zsh): `it's` → `'it'\''s'`.
    static func singleQuoted(_ text: String) -> String {
        var result = "'"
        for character in text {
            result += character == "'" ? "'\\''" : String(character)
        }
        return result + "'"
    }

    /// `text` in fish single quotes, where only `\` and `'` need a backslash.
    static func fishQuoted(_ text: String) -> String {
        var result = "'"
        for character in text {
            if character == "'" || character == "\\" { result += "\\" }
            result.append(character)
        }
        return result + "'"
    }

    /// The first sentence-ish line of a help text, short enough for a completion menu.
    static func menuText(_ help: String) -> String {
        let firstLine = help.split(separator: "\n").first.map(String.init) ?? ""
        return firstLine.count > 70 ? String(firstLine.prefix(67)) + "..." : firstLine
    }
}
