/// The declarative description of a command: what it is called, what it takes, how it is
/// documented, and its subcommands. One value drives parsing, help, completion scripts and
/// layered configuration, so they cannot disagree.
///
/// Options declared on a command are inherited by its subcommands: a root `--json` is accepted
/// both before and after the subcommand name (`vmctl --json list`, `vmctl list --json`).
///
/// ```swift
/// let vmctl = CommandSpec(
///     name: "vmctl", summary: "Drive a running vmd daemon.",
///     options: [.value("socket", short: "s", valueName: "PATH", help: "Socket path.",
///                      environment: "VMD_SOCKET")],
///     subcommands: [
///         CommandSpec(name: "list", summary: "List instances."),
///         CommandSpec(name: "get", summary: "Print a state output.",
///                     arguments: [ArgumentSpec("INSTANCE", help: "Instance id."),
///                                 ArgumentSpec("OUTPUT", help: "Output name.")]),
///     ])
/// let parsed = try CommandLineParser(root: vmctl).parse(["get", "login-1", "isValid"])
/// ```
package struct CommandSpec: Sendable, Hashable {
    /// The word that selects this command (for the root: the program name).
    package var name: String
    /// One line, shown in the parent's subcommand table and at the top of help.
    package var summary: String
    /// Longer text printed after the usage line; blank lines separate paragraphs.
    package var discussion: String
    /// Example invocations printed at the end of help.
    package var examples: [CommandExample]
    /// Positional arguments, in order. A command with subcommands should declare none.
    package var arguments: [ArgumentSpec]
    /// Options of this command, inherited by every subcommand.
    package var options: [OptionSpec]
    /// Subcommands; when non-empty, one of them must be named.
    package var subcommands: [CommandSpec]
    /// Extra tables ("Exit codes", "Environment") printed at the end of help.
    package var sections: [HelpSection]
    /// Hidden commands parse normally but are left out of help and completion scripts.
    package var isHidden: Bool

    /// Creates a command description.
    package init(
        name: String, summary: String, discussion: String = "",
        examples: [CommandExample] = [], arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        sections: [HelpSection] = [], isHidden: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.examples = examples
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.sections = sections
        self.isHidden = isHidden
    }

    /// The direct subcommand called `name`, if any.
    package func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The chain of commands from this root down the path of subcommand names, or nil if a name
    /// along the path is unknown. `chain(for: [])` is `[self]`.
    package func chain(for path: [String]) -> [CommandSpec]? {
        var chain = [self]
        for word in path {
            guard let next = chain[chain.count - 1].subcommand(named: word) else { return nil }
            chain.append(next)
        }
        return chain
    }

    /// Every option in effect at the end of `chain`: inherited ones first, nearer declarations
    /// replacing farther ones with the same long name.
    static func options(inEffectFor chain: [CommandSpec]) -> [OptionSpec] {
        var result: [OptionSpec] = []
        for command in chain {
            for option in command.options {
                if let index = result.firstIndex(where: { $0.long == option.long }) {
                    result[index] = option
                } else {
                    result.append(option)
                }
            }
        }
        return result
    }

    /// Problems in the spec itself (programmer errors), for a unit test to assert is empty:
    /// duplicate names, arguments out of order, a command with both arguments and subcommands.
    package func validationProblems() -> [String] {
        var problems: [String] = []
        validate(path: name, inherited: [], isRoot: true, into: &problems)
        return problems
    }

    private func validate(
        path: String, inherited: [OptionSpec], isRoot: Bool, into problems: inout [String]) {
        var longs = Set<String>()
        var shorts = Set<Character>()
        for option in options {
            if !longs.insert(option.long).inserted {
                problems.append("\(path): option --\(option.long) declared twice")
            }
            if let short = option.short, !shorts.insert(short).inserted {
                problems.append("\(path): short option -\(short) declared twice")
            }
            if option.long == "help" || option.short == "h" {
                problems.append("\(path): --help and -h are built in")
            }
            if let short = option.short,
                let clash = inherited.first(where: { $0.short == short && $0.long != option.long })
            {
                problems.append("\(path): -\(short) means both --\(clash.long) and --\(option.long)")
            }
        }
        var sawOptional = false
        for (index, argument) in arguments.enumerated() {
            if argument.arity == .required && sawOptional {
                problems.append("\(path): required argument \(argument.name) follows an optional one")
            }
            if argument.arity == .variadic && index != arguments.count - 1 {
                problems.append("\(path): variadic argument \(argument.name) is not last")
            }
            if argument.arity != .required { sawOptional = true }
        }
        if !arguments.isEmpty && !subcommands.isEmpty {
            problems.append("\(path): a command takes either arguments or subcommands, not both")
        }
        var names = Set<String>(isRoot ? ["help"] : [])  // `help` is built into the root
        for subcommand in subcommands {
            if !names.insert(subcommand.name).inserted {
                problems.append("\(path): subcommand \(subcommand.name) declared twice")
            }
            subcommand.validate(
                path: path + " " + subcommand.name, inherited: inherited + options, isRoot: false,
                into: &problems)
        }
    }
}
