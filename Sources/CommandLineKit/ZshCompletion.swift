/// The zsh completion script: lookup functions generated from the spec, with descriptions for
/// the menu, and one fixed function that walks `$words` to find the command path.
///
/// It avoids the name `path`, which zsh ties to `$PATH`.
enum ZshCompletion {
    static func render(_ model: CompletionModel) -> String {
        let stem = "_" + model.functionStem
        let q = CompletionModel.singleQuoted
        var lines = [
            "#compdef \(model.program)",
            "# zsh completion for \(model.program), generated from its command spec.",
            "# Load it with: source <(\(model.program) completion zsh)",
            "# or save it as \(stem) in a directory on $fpath.",
            "",
        ]
        /// `name:description` entries for `_describe`, with colons in names escaped.
        func described(_ name: String, _ text: String) -> String {
            let escapedName = name.split(separator: ":", omittingEmptySubsequences: false).joined(separator: "\\:")
            return q(escapedName + ":" + CompletionModel.menuText(text))
        }
        func lookup(_ name: String, _ values: (CompletionModel.Node) -> [String]) {
            lines.append("\(stem)_\(name)() {")
            lines.append("    case \"$1\" in")
            for node in model.nodes {
                let words = values(node)
                if words.isEmpty { continue }
                lines.append("        \(q(node.key))) print -rl -- \(words.joined(separator: " ")) ;;")
            }
            lines.append("    esac")
            lines.append("}")
        }
        lookup("subcommands") { $0.subcommands.map { described($0.name, $0.summary) } }
        lookup("subcommand_names") { $0.subcommands.map { q($0.name) } }
        lookup("options") { node in
            node.options.flatMap { option in
                CompletionModel.Node.spellings(option).map { described($0, option.help) }
            }
        }
        lookup("value_options") { $0.valueOptionSpellings.map(q) }
        lookup("argument_values") { $0.argumentValues.map(q) }
        lines.append("\(stem)_option_values() {")
        lines.append("    case \"$1|$2\" in")
        for node in model.nodes {
            for option in node.options where !option.allowedValues.isEmpty {
                let keys = CompletionModel.Node.spellings(option).map { q(node.key + "|" + $0) }
                lines.append("        \(keys.joined(separator: "|"))) print -rl -- \(option.allowedValues.map(q).joined(separator: " ")) ;;")
            }
        }
        lines.append("    esac")
        lines.append("}")
        // Live words from the program itself; without a dynamic command, nothing.
        lines.append("\(stem)_dynamic() {")
        if let dynamic = model.dynamicCommand {
            lines.append("    ${words[1]} \(q(dynamic)) \"${(@)words[2,CURRENT]}\" 2>/dev/null")
        } else {
            lines.append("    print -r -- ':files'")
        }
        lines.append("}")
        lines += """

            \(stem)() {
                local cmdpath="" word
                local -i i=2
                local -a value_options subcommands candidates
                # Find the subcommand path, skipping options and the values they take.
                while (( i < CURRENT )); do
                    word=${words[i]}
                    value_options=(${(f)"$(\(stem)_value_options "$cmdpath")"})
                    subcommands=(${(f)"$(\(stem)_subcommand_names "$cmdpath")"})
                    if [[ $word == -- ]]; then
                        break
                    elif [[ $word == -* ]]; then
                        if [[ $word != *=* && ${value_options[(Ie)$word]} -gt 0 ]]; then
                            (( i++ ))
                        fi
                    elif (( ${subcommands[(Ie)$word]} )); then
                        cmdpath="${cmdpath:+$cmdpath }$word"
                    fi
                    (( i++ ))
                done
                local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
                value_options=(${(f)"$(\(stem)_value_options "$cmdpath")"})
                if (( CURRENT > 2 && ${value_options[(Ie)$prev]} )); then
                    candidates=(${(f)"$(\(stem)_option_values "$cmdpath" "$prev")"})
                    (( ${#candidates} )) || candidates=(${(f)"$(\(stem)_dynamic)"})
                    if [[ ${candidates[1]} == :files ]]; then
                        _files
                    elif (( ${#candidates} )); then
                        compadd -a candidates
                    fi
                    return
                fi
                if [[ $cur == -* ]]; then
                    candidates=(${(f)"$(\(stem)_options "$cmdpath")"})
                    _describe -t options 'option' candidates
                else
                    candidates=(${(f)"$(\(stem)_subcommands "$cmdpath")"})
                    (( ${#candidates} )) && _describe -t subcommands 'subcommand' candidates
                    candidates=(${(f)"$(\(stem)_argument_values "$cmdpath")"})
                    (( ${#candidates} )) && compadd -a candidates
                    candidates=(${(f)"$(\(stem)_dynamic)"})
                    [[ ${candidates[1]} == :files ]] && candidates=()
                    (( ${#candidates} )) && compadd -a candidates
                fi
                return 0
            }

            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
                \(stem) "$@"
            else
                compdef \(stem) \(model.program)
            fi

            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.joined(separator: "\n")
    }
}
