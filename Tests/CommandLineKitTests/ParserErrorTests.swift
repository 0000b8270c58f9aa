import CommandLineKit
import Testing

@Suite("Usage errors say exactly what is wrong")
struct ParserErrorTests {
    static let cases: [(argv: [String], text: String)] = [
        (["--jsno", "info"], """
            error: unknown option '--jsno'; did you mean '--json'?
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["info", "--sockt=/x"], """
            error: unknown option '--sockt'; did you mean '--socket'?
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["info", "--hlep"], """
            error: unknown option '--hlep'; did you mean '--help'?
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["info", "--frobnicate"], """
            error: unknown option '--frobnicate'
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["--id", "c1", "create", "T"], """
            error: option '--id' belongs to 'vmctl create'; write it after 'vmctl create'
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["info", "-x"], """
            error: unknown option '-x'
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["info", "-jxv"], """
            error: unknown option '-x' in '-jxv'
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["crate", "Counter"], """
            error: unknown subcommand 'crate' for 'vmctl'; did you mean 'create'?
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["daemon", "stat"], """
            error: unknown subcommand 'stat' for 'vmctl daemon'; did you mean 'start' or 'status'?
            usage: vmctl daemon [options] SUBCOMMAND
            Run 'vmctl help daemon' for more information.
            """),
        (["launch"], """
            error: unknown subcommand 'launch' for 'vmctl'
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["help", "daemon", "restart"], """
            error: unknown subcommand 'restart' for 'vmctl daemon'; did you mean 'start'?
            usage: vmctl daemon [options] SUBCOMMAND
            Run 'vmctl help daemon' for more information.
            """),
        ([], """
            error: 'vmctl' needs a subcommand: one of info, create, get, send, watch, daemon, completion
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["daemon"], """
            error: 'vmctl daemon' needs a subcommand: one of start, stop, status
            usage: vmctl daemon [options] SUBCOMMAND
            Run 'vmctl help daemon' for more information.
            """),
        (["get", "c1"], """
            error: missing argument OUTPUT
            usage: vmctl get [options] INSTANCE OUTPUT
            Run 'vmctl help get' for more information.
            """),
        (["create"], """
            error: missing argument TYPE
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
        (["create", "T", "--id"], """
            error: option '--id' needs a value: --id ID
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
        (["create", "T", "--arg", "--id", "x"], """
            error: option '--arg' needs a value but was followed by '--id'; write --arg=--id if that is the value
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
        (["-s"], """
            error: option '--socket' needs a value: --socket PATH
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["create", "T", "--scope", "conection"], """
            error: invalid value 'conection' for --scope: expected one of daemon, connection; did you mean 'connection'?
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
        (["create", "T", "--scope=global"], """
            error: invalid value 'global' for --scope: expected one of daemon, connection
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
        (["completion", "tcsh"], """
            error: invalid value 'tcsh' for SHELL: expected one of bash, zsh, fish
            usage: vmctl completion [options] SHELL
            Run 'vmctl help completion' for more information.
            """),
        (["get", "c1", "out", "extra"], """
            error: unexpected argument 'extra': 'vmctl get' takes at most 2 arguments
            usage: vmctl get [options] INSTANCE OUTPUT
            Run 'vmctl help get' for more information.
            """),
        (["info", "now"], """
            error: unexpected argument 'now': 'vmctl info' takes no arguments
            usage: vmctl info [options]
            Run 'vmctl help info' for more information.
            """),
        (["completion", "bash", "zsh"], """
            error: unexpected argument 'zsh': 'vmctl completion' takes at most 1 argument
            usage: vmctl completion [options] SHELL
            Run 'vmctl help completion' for more information.
            """),
        (["--json=yes", "info"], """
            error: option '--json' is a flag and takes no value (got '--json=yes')
            usage: vmctl [options] SUBCOMMAND
            Run 'vmctl --help' for more information.
            """),
        (["create", "T", "--id", "a", "--id=b"], """
            error: option '--id' was given more than once; it takes a single value
            usage: vmctl create [options] TYPE
            Run 'vmctl help create' for more information.
            """),
    ]

    @Test("each malformed command line produces its exact message", arguments: cases)
    func exactMessage(argv: [String], text: String) {
        #expect(throws: UsageError.self) { try SampleSpec.parser.parse(argv) }
        do {
            _ = try SampleSpec.parser.parse(argv)
        } catch {
            #expect(error.description == text)
            #expect(error.exitCode == 2)
        }
    }

    @Test("errors carry a structured kind a program can inspect")
    func structuredKind() throws {
        let error = try #require(throws: UsageError.self) { try SampleSpec.parser.parse(["crate"]) }
        #expect(error.kind == .unknownSubcommand("crate", suggestions: ["create"]))
        #expect(error.commandPath == ["vmctl"])
    }

    @Test("a bad integer option names the option and the value")
    func badInteger() throws {
        let parsed = try SampleSpec.parser.parse(["watch", "c1", "--count", "ten"])
        let error = try #require(throws: UsageError.self) { try parsed.int("count") }
        #expect(error.description == """
            error: invalid value 'ten' for --count: expected an integer
            usage: vmctl watch [options] INSTANCE [OUTPUT]...
            Run 'vmctl help watch' for more information.
            """)
    }

    @Test("hidden options and subcommands are never suggested")
    func hiddenNotSuggested() {
        let root = CommandSpec(
            name: "t", summary: "",
            options: [.flag("secret", help: "", isHidden: true)],
            subcommands: [CommandSpec(name: "dump", summary: "", isHidden: true), CommandSpec(name: "run", summary: "")])
        let parser = CommandLineParser(root: root)
        #expect(throws: UsageError(.unknownOption("--secre", suggestions: []), commandPath: ["t"],
                                   usage: "t [options] SUBCOMMAND")) { try parser.parse(["--secre"]) }
        #expect(throws: UsageError(.unknownSubcommand("dum", suggestions: []), commandPath: ["t"],
                                   usage: "t [options] SUBCOMMAND")) { try parser.parse(["dum"]) }
        #expect(throws: UsageError(.missingSubcommand(available: ["run"]), commandPath: ["t"],
                                   usage: "t [options] SUBCOMMAND")) { try parser.parse([]) }
    }
}

@Suite("Suggestions by edit distance")
struct SuggestionTests {
    @Test("close spellings are suggested, far ones are not",
          arguments: [
              ("jsno", ["json", "socket"], ["json"]),
              ("jsn", ["json"], ["json"]),
              ("sokcet", ["socket", "json"], ["socket"]),
              ("max-conection", ["max-connections", "max-instances"], ["max-connections"]),
              ("stat", ["start", "stop", "status"], ["start", "status"]),
              ("max", ["max-connections", "json", "max-depth"], ["max-connections", "max-depth"]),
              ("m", ["max"], []),
              ("xyz", ["json"], []),
              ("json", ["json"], []),
              ("", ["a"], ["a"]),
          ])
    func closest(word: String, candidates: [String], expected: [String]) {
        #expect(Suggestions.closest(to: word, among: candidates) == expected)
    }
}
