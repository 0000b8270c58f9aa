/// Where the cursor is in a partly typed command line, for a program that completes words
/// from live data (a daemon's instances, say) through the hidden command that
/// ``CompletionScript/render(_:for:dynamic:)`` makes the scripts call.
///
/// ```swift
/// let context = CompletionContext(words: ["send", "c1", ""], root: spec)
/// // context.path == ["send"], context.positionals == ["c1"], context.current == ""
/// ```
package struct CompletionContext: Sendable, Equatable {
    /// The subcommand path typed so far (`["daemon", "start"]`).
    package var path: [String]
    /// The positional arguments before the cursor.
    package var positionals: [String]
    /// The option whose value is being typed (`--id ` then TAB), or `nil`.
    package var optionAwaitingValue: OptionSpec?
    /// The values of the value options typed before the cursor, by long name (the last wins).
    package var optionValues: [String: String]
    /// The word being completed ("" right after a space).
    package var current: String

    /// Reads `words`: what follows the program name, the word under the cursor last.
    package init(words: [String], root: CommandSpec) {
        path = []
        positionals = []
        optionAwaitingValue = nil
        optionValues = [:]
        current = words.last ?? ""
        var chain = [root]
        var pending: OptionSpec?
        var optionsEnded = false
        for word in words.dropLast() {
            if let option = pending {
                optionValues[option.long] = word
                pending = nil
                continue
            }
            if !optionsEnded && word == "--" {
                optionsEnded = true
            } else if !optionsEnded && word.hasPrefix("-") && word.count > 1 {
                let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                let option = CommandSpec.options(inEffectFor: chain).first {
                    $0.displayName == name || $0.short.map { "-\($0)" } == name
                }
                guard let option, option.kind != .flag else { continue }
                if let equals = word.firstIndex(of: "=") {
                    optionValues[option.long] = String(word[word.index(after: equals)...])
                } else {
                    pending = option
                }
            } else if positionals.isEmpty, let next = chain[chain.count - 1].subcommand(named: word) {
                chain.append(next)
                path.append(word)
            } else {
                positionals.append(word)
            }
        }
        optionAwaitingValue = pending
    }
}
