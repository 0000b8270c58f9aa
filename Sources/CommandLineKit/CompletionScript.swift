/// Writes shell completion scripts from a ``CommandSpec``: subcommands (nested too), the
/// options in effect at each level, the fixed values of enumerated options and arguments, and
/// file names for other option values.
///
/// ```swift
/// print(CompletionScript.render(.bash, for: spec), terminator: "")
/// ```
package enum CompletionScript {
    /// The completion script of `root` for `shell`, ending with a newline.
    ///
    /// With `dynamic`, the script also asks the program for the words only it can know: where
    /// an argument or the value of an option without fixed values is expected, it runs
    /// `PROGRAM DYNAMIC WORD...` (the words after the program name, the one under the cursor
    /// last; standard error discarded) and offers the lines it prints. A single line `:files`
    /// asks for file names instead; printing nothing offers nothing (no file names either).
    /// ``CompletionContext`` reads those words back.
    package static func render(_ shell: CompletionShell, for root: CommandSpec, dynamic: String? = nil) -> String {
        var model = CompletionModel(root: root)
        model.dynamicCommand = dynamic
        switch shell {
        case .bash: return BashCompletion.render(model)
        case .zsh: return ZshCompletion.render(model)
        case .fish: return FishCompletion.render(model)
        }
    }
}
