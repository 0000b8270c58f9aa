/// The one-line synopsis of a command, shared by help and usage errors:
/// `vmctl get [options] INSTANCE OUTPUT`, `vmctl daemon [options] SUBCOMMAND`.
enum UsageLine {
    /// The synopsis of the last command in `chain` (root first).
    static func text(for chain: [CommandSpec]) -> String {
        guard let command = chain.last else { return "" }
        var words = chain.map(\.name)
        // --help is always accepted, so every command has options.
        words.append("[options]")
        if !command.subcommands.isEmpty {
            words.append("SUBCOMMAND")
        }
        words += command.arguments.map(\.usageText)
        return words.joined(separator: " ")
    }
}
