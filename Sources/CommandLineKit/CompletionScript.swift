/// Writes shell completion scripts from a ``CommandSpec``: subcommands (nested too), the
/// options in effect at each level, the fixed values of enumerated options and arguments, and
/// file names for other option values.
///
/// ```swift
/// print(CompletionScript.render(.bash, for: spec), terminator: "")
/// ```
public enum CompletionScript {
    /// The completion script of `root` for `shell`, ending with a newline.
    public static func render(_ shell: CompletionShell, for root: CommandSpec) -> String {
        let model = CompletionModel(root: root)
        switch shell {
        case .bash: return BashCompletion.render(model)
        case .zsh: return ZshCompletion.render(model)
        case .fish: return FishCompletion.render(model)
        }
    }
}
