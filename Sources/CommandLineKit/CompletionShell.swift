/// A shell for which ``CompletionScript`` can write a completion script.
package enum CompletionShell: String, Sendable, CaseIterable {
    /// GNU bash (4 or later): `source <(vmctl completion bash)`.
    case bash
    /// zsh: `source <(vmctl completion zsh)`, or save as `_vmctl` in a directory on `$fpath`.
    case zsh
    /// fish: `vmctl completion fish | source`, or save in `~/.config/fish/completions/vmctl.fish`.
    case fish
}
