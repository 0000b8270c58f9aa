import CommandLineKit
import Foundation
import Testing

@Suite("Completion scripts")
struct CompletionScriptTests {
    @Test("every script names every visible subcommand, option and enumerated value",
          arguments: CompletionShell.allCases)
    func mentionsEverything(shell: CompletionShell) {
        let script = CompletionScript.render(shell, for: SampleSpec.root)
        for word in ["info", "create", "get", "send", "watch", "daemon", "start", "stop", "status",
                     "completion", "help", "socket", "json", "verbose", "scope", "arg", "count",
                     "timeout", "connection", "bash", "zsh", "fish"] {
            #expect(script.contains(word), "\(shell) script lacks \(word)")
        }
        #expect(!script.contains("debug-dump"))
        #expect(script.hasSuffix("\n"))
    }

    @Test("the zsh script registers itself with compdef and the fish script guards by path")
    func shellSpecifics() {
        let zsh = CompletionScript.render(.zsh, for: SampleSpec.root)
        #expect(zsh.hasPrefix("#compdef vmctl\n"))
        #expect(zsh.contains("compdef _vmctl vmctl"))
        #expect(zsh.contains("'start:Start vmd detached and wait until it answers.'"))
        #expect(!zsh.contains("local path"), "zsh ties $path to $PATH")
        let fish = CompletionScript.render(.fish, for: SampleSpec.root)
        #expect(fish.contains(
            "complete -c vmctl -n '__vmctl_at \\'create\\'' -l 'scope' -x -a 'daemon connection' -d 'Who owns the instance.'"))
        #expect(fish.contains("complete -c vmctl -n '__vmctl_at \\'daemon\\'' -a 'stop' -d 'Ask vmd to shut down.'"))
        #expect(fish.contains("complete -c vmctl -n '__vmctl_at \\'completion\\'' -a 'bash zsh fish'"))
        #expect(fish.contains("complete -c vmctl -n '__vmctl_at \\'\\'' -s 's' -l 'socket' -r -F -d 'The daemon\\'s socket.'"))
    }

    @Test("the bash script passes bash -n")
    func bashSyntax() throws {
        let script = CompletionScript.render(.bash, for: SampleSpec.root)
        let result = try Shell.run("bash", ["-n"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("bash completes subcommands, options and values for what was typed",
          arguments: [
              (["vmctl", ""], ["info", "create", "get", "send", "watch", "daemon", "completion", "help"]),
              (["vmctl", "c"], ["create", "completion"]),
              (["vmctl", "--socket", "/tmp/x", "da"], ["daemon"]),
              (["vmctl", "-j", "daemon", "st"], ["start", "stop", "status"]),
              (["vmctl", "daemon", "--json", "sta"], ["start", "status"]),
              (["vmctl", "create", "T", "--sc"], ["--scope"]),
              (["vmctl", "create", "T", "--scope", ""], ["daemon", "connection"]),
              (["vmctl", "create", "--scope", "c"], ["connection"]),
              (["vmctl", "info", "--j"], ["--json"]),
              (["vmctl", "completion", ""], ["bash", "zsh", "fish"]),
              (["vmctl", "help", "da"], ["daemon"]),
              (["vmctl", "watch", "c1", "-"], ["--socket", "-s", "--json", "-j", "--verbose", "-v",
                                             "--count", "-n", "--timeout", "-t", "--help", "-h"]),
          ])
    func bashCompletes(words: [String], expected: [String]) throws {
        let script = CompletionScript.render(.bash, for: SampleSpec.root)
        let quotedWords = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = script + """
            COMP_WORDS=(\(quotedWords))
            COMP_CWORD=\(words.count - 1)
            _vmctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Shell.run("bash", [], stdin: driver)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }

    @Test("a program name with a dash still gives valid function names")
    func dashedProgramName() throws {
        let spec = CommandSpec(name: "vm-ctl", summary: "x", subcommands: [CommandSpec(name: "go", summary: "Go.")])
        let script = CompletionScript.render(.bash, for: spec)
        #expect(script.contains("complete -F _vm_ctl vm-ctl"))
        #expect(try Shell.run("bash", ["-n"], stdin: script).status == 0)
    }
}

@Suite("Completion scripts in zsh and fish (skipped where the shell is not installed)")
struct OtherShellCompletionTests {
    @Test("the zsh script passes zsh -n", .enabled(if: Shell.isInstalled("zsh")))
    func zshSyntax() throws {
        let result = try Shell.run("zsh", ["-n"], stdin: CompletionScript.render(.zsh, for: SampleSpec.root))
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("the fish script passes fish -n", .enabled(if: Shell.isInstalled("fish")))
    func fishSyntax() throws {
        let result = try Shell.run("fish", ["-n"], stdin: CompletionScript.render(.fish, for: SampleSpec.root))
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("zsh offers the right candidates for what was typed (completion builtins stubbed)",
          .enabled(if: Shell.isInstalled("zsh")),
          arguments: [
              ("vmctl daemon --json ", ["start", "stop", "status"]),
              ("vmctl -s /tmp/x create T --scope ", ["daemon", "connection"]),
              ("vmctl completion ", ["bash", "zsh", "fish"]),
              ("vmctl --socket ", ["FILES"]),
              ("vmctl watch c1 --c", ["--socket", "-s", "--json", "-j", "--verbose", "-v",
                                      "--count", "-n", "--timeout", "-t", "--help", "-h"]),
          ])
    func zshCandidates(line: String, expected: [String]) throws {
        // Outside a completion widget `words` and `CURRENT` are plain parameters, and the
        // builtins that would show a menu are replaced by ones that print the candidates.
        let driver = CompletionScript.render(.zsh, for: SampleSpec.root) + """
            compdef() { : }
            _files() { print FILES }
            compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} }
            _describe() { local -a entries; entries=(${(P)4}); print -l -- ${entries%%:*} }
            words=(${(z)LINE})
            [[ $LINE == *' ' ]] && words+=('')
            CURRENT=${#words}
            _vmctl
            """
        let result = try Shell.run("zsh", ["-c", "LINE=\(ShellQuote.single(line)); source /dev/stdin"], stdin: driver)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }

    @Test("fish completes subcommands, options and values for what was typed",
          .enabled(if: Shell.isInstalled("fish")),
          arguments: [
              ("vmctl da", ["daemon"]),
              ("vmctl daemon st", ["start", "status", "stop"]),
              ("vmctl create T --scope ", ["connection", "daemon"]),
              ("vmctl -s /tmp/x create T --sc", ["--scope"]),
              ("vmctl completion ", ["bash", "fish", "zsh"]),
              ("vmctl help dae", ["daemon"]),
          ])
    func fishCandidates(line: String, expected: [String]) throws {
        let script = CompletionScript.render(.fish, for: SampleSpec.root)
        let driver = script + "\ncomplete -C \(ShellQuote.single(line))\n"
        let result = try Shell.run("fish", ["--no-config"], stdin: driver)
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(names == expected)
    }
}

/// POSIX single quoting for building driver scripts.
enum ShellQuote {
    static func single(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

/// Runs a shell found on PATH with a script on standard input.
enum Shell {
    static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)")
        }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ shell: String, _ arguments: [String], stdin: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell] + arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty script cannot block on a full pipe.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite("Completion from the program")
struct DynamicCompletionTests {
    @Test("a script with a dynamic command calls it, and one without never does", arguments: CompletionShell.allCases)
    func scriptsCallTheDynamicCommand(shell: CompletionShell) {
        #expect(CompletionScript.render(shell, for: SampleSpec.root, dynamic: "__complete").contains("'__complete'"))
        #expect(!CompletionScript.render(shell, for: SampleSpec.root).contains("__complete"))
    }

    @Test("the bash script with a dynamic command passes bash -n")
    func bashSyntax() throws {
        let script = CompletionScript.render(.bash, for: SampleSpec.root, dynamic: "__complete")
        let result = try Shell.run("bash", ["-n"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("the context finds the path, the positionals and the option awaiting a value")
    func contextReadsTheWords() {
        let sending = CompletionContext(words: ["--socket", "/s", "send", "c1", "in"], root: SampleSpec.root)
        #expect(sending.path == ["send"])
        #expect(sending.positionals == ["c1"])
        #expect(sending.current == "in")
        #expect(sending.optionAwaitingValue == nil)
        #expect(sending.optionValues == ["socket": "/s"])
        let naming = CompletionContext(words: ["create", "Counter", "--json", "--scope=daemon", "--id", ""], root: SampleSpec.root)
        #expect(naming.path == ["create"])
        #expect(naming.positionals == ["Counter"])
        #expect(naming.optionAwaitingValue?.long == "id")
        #expect(naming.optionValues == ["scope": "daemon"])
    }
}
