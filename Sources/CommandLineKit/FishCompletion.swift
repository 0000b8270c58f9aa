/// The fish completion script: two lookup functions and a path finder, then one `complete`
/// line per subcommand, option and argument value, each guarded by the command path.
enum FishCompletion {
    static func render(_ model: CompletionModel) -> String {
        let stem = "__" + model.functionStem
        let q = CompletionModel.fishQuoted
        let program = model.program
        var lines = [
            "# fish completion for \(program), generated from its command spec.",
            "# Load it with: \(program) completion fish | source",
            "# or save it as ~/.config/fish/completions/\(program).fish",
            "",
        ]
        func lookup(_ name: String, _ values: (CompletionModel.Node) -> [String]) {
            lines.append("function \(stem)_\(name)")
            lines.append("    switch \"$argv[1]\"")
            for node in model.nodes {
                let words = values(node)
                if words.isEmpty { continue }
                lines.append("        case \(q(node.key))")
                lines.append("            printf '%s\\n' \(words.map(q).joined(separator: " "))")
            }
            lines.append("    end")
            lines.append("end")
        }
        lookup("subcommands") { $0.subcommands.map(\.name) }
        lookup("value_options") { $0.valueOptionSpellings }
        lines += """

            # Prints the subcommand path typed so far, skipping options and the values they take.
            function \(stem)_path
                set -l words (commandline -opc)
                set -e words[1]
                set -l cmdpath
                set -l skip 0
                for word in $words
                    if test $skip -eq 1
                        set skip 0
                        continue
                    end
                    switch $word
                        case '--'
                            break
                        case '-*'
                            if not string match -q -- '*=*' $word; and contains -- $word (\(stem)_value_options "$cmdpath")
                                set skip 1
                            end
                        case '*'
                            if contains -- $word (\(stem)_subcommands "$cmdpath")
                                set cmdpath (string join ' ' $cmdpath $word)
                            end
                    end
                end
                echo "$cmdpath"
            end

            function \(stem)_at --argument-names expected
                test (\(stem)_path) = "$expected"
            end

            complete -c \(program) -f
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let dynamic = model.dynamicCommand {
            // Live words from the program itself, for arguments and option values alike.
            lines += [
                "function \(stem)_dynamic",
                "    set -l words (commandline -opc)",
                "    set -l cur (commandline -ct)",
                "    set -a words \"$cur\"",
                "    set -l live ($words[1] \(q(dynamic)) $words[2..-1] 2>/dev/null)",
                "    if test \"$live\" = ':files'",
                "        __fish_complete_path (commandline -ct)",
                "    else",
                "        printf '%s\\n' $live",
                "    end",
                "end",
                "complete -c \(program) -n 'not string match -q -- \"-*\" (commandline -ct)' -a '(\(stem)_dynamic)'",
            ]
        }
        for node in model.nodes {
            let condition = "-n " + q("\(stem)_at " + q(node.key))
            for subcommand in node.subcommands {
                lines.append("complete -c \(program) \(condition) -a \(q(subcommand.name)) -d \(q(CompletionModel.menuText(subcommand.summary)))")
            }
            if !node.argumentValues.isEmpty {
                lines.append("complete -c \(program) \(condition) -a \(q(node.argumentValues.joined(separator: " ")))")
            }
            for option in node.options {
                var words = ["complete -c \(program) \(condition)"]
                if let short = option.short { words.append("-s \(q(String(short)))") }
                words.append("-l \(q(option.long))")
                if option.kind != .flag {
                    if option.allowedValues.isEmpty {
                        words.append(model.dynamicCommand == nil ? "-r -F" : "-x -a " + q("(\(stem)_dynamic)"))
                    } else {
                        words.append("-x -a \(q(option.allowedValues.joined(separator: " ")))")
                    }
                }
                words.append("-d \(q(CompletionModel.menuText(option.help)))")
                lines.append(words.joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
