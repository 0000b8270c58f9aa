/// The bash completion script: small lookup functions generated from the spec (one `case`
/// branch per command path) and one fixed completion function that walks the words typed so
/// far to find the command path.
enum BashCompletion {
    static func render(_ model: CompletionModel) -> String {
        let stem = "_" + model.functionStem
        let q = CompletionModel.singleQuoted
        var lines = [
            "# bash completion for \(model.program), generated from its command spec.",
            "# Load it with: source <(\(model.program) completion bash)",
            "",
        ]
        func lookup(_ name: String, _ values: (CompletionModel.Node) -> [String]) {
            lines.append("\(stem)_\(name)() {")
            lines.append("    case \"$1\" in")
            for node in model.nodes {
                let words = values(node)
                if words.isEmpty { continue }
                lines.append("        \(q(node.key))) printf '%s\\n' \(words.map(q).joined(separator: " ")) ;;")
            }
            lines.append("    esac")
            lines.append("}")
        }
        lookup("subcommands") { $0.subcommands.map(\.name) }
        lookup("options") { $0.options.flatMap(CompletionModel.Node.spellings) }
        lookup("value_options") { $0.valueOptionSpellings }
        lookup("argument_values") { $0.argumentValues }

        // Values of enumerated options, keyed by "path|spelling".
        lines.append("\(stem)_option_values() {")
        lines.append("    case \"$1|$2\" in")
        for node in model.nodes {
            for option in node.options where !option.allowedValues.isEmpty {
                let keys = CompletionModel.Node.spellings(option).map { q(node.key + "|" + $0) }
                lines.append("        \(keys.joined(separator: "|"))) printf '%s\\n' \(option.allowedValues.map(q).joined(separator: " ")) ;;")
            }
        }
        lines.append("    esac")
        lines.append("}")
        // Live words from the program itself; without a dynamic command, nothing.
        lines.append("\(stem)_dynamic() {")
        if let dynamic = model.dynamicCommand {
            lines.append("    \"${COMP_WORDS[0]}\" \(q(dynamic)) \"${COMP_WORDS[@]:1:COMP_CWORD}\" 2>/dev/null")
        } else {
            lines.append("    printf ':files\\n'")
        }
        lines.append("}")
        lines += """

            \(stem)_contains() {
                local needle="$1" item
                shift
                for item in "$@"; do [[ "$item" == "$needle" ]] && return 0; done
                return 1
            }

            \(stem)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" word i=1
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                # Find the subcommand path, skipping options and the values they take.
                while (( i < COMP_CWORD )); do
                    word="${COMP_WORDS[i]}"
                    if [[ "$word" == "--" ]]; then
                        break
                    elif [[ "$word" == -* ]]; then
                        if [[ "$word" != *=* ]] && \(stem)_contains "$word" $(\(stem)_value_options "$cmdpath"); then
                            (( i++ ))
                        fi
                    elif \(stem)_contains "$word" $(\(stem)_subcommands "$cmdpath"); then
                        cmdpath="${cmdpath:+$cmdpath }$word"
                    fi
                    (( i++ ))
                done
                if (( COMP_CWORD > 1 )) && \(stem)_contains "$prev" $(\(stem)_value_options "$cmdpath"); then
                    local values
                    values="$(\(stem)_option_values "$cmdpath" "$prev")"
                    [[ -z "$values" ]] && values="$(\(stem)_dynamic)"
                    if [[ "$values" == ":files" ]]; then
                        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                    else
                        mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
                    fi
                    return 0
                fi
                if [[ "$cur" == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "$(\(stem)_options "$cmdpath")" -- "$cur")
                else
                    local live
                    live="$(\(stem)_dynamic)"
                    [[ "$live" == ":files" ]] && live=""
                    mapfile -t COMPREPLY < <(compgen -W "$(\(stem)_subcommands "$cmdpath") $(\(stem)_argument_values "$cmdpath") $live" -- "$cur")
                fi
                return 0
            }

            complete -F \(stem) \(model.program)

            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.joined(separator: "\n")
    }
}
