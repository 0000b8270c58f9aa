import CommandLineKit
import Testing

@Suite("Parsing the accepted forms")
struct ParserFormsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var argv: [String]
        var path: [String]
        var options: [String: [String]]
        var arguments: [String: [String]]
        var testDescription: String { argv.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(argv: ["info"], path: ["info"], options: [:], arguments: [:]),
        Case(argv: ["--json", "info"], path: ["info"], options: ["json": [""]], arguments: [:]),
        Case(argv: ["info", "--json"], path: ["info"], options: ["json": [""]], arguments: [:]),
        Case(argv: ["-j", "info"], path: ["info"], options: ["json": [""]], arguments: [:]),
        Case(argv: ["--socket", "/s", "info"], path: ["info"], options: ["socket": ["/s"]], arguments: [:]),
        Case(argv: ["--socket=/s", "info"], path: ["info"], options: ["socket": ["/s"]], arguments: [:]),
        Case(argv: ["--socket=", "info"], path: ["info"], options: ["socket": [""]], arguments: [:]),
        Case(argv: ["--socket=a=b", "info"], path: ["info"], options: ["socket": ["a=b"]], arguments: [:]),
        Case(argv: ["-s", "/s", "info"], path: ["info"], options: ["socket": ["/s"]], arguments: [:]),
        Case(argv: ["-s/s", "info"], path: ["info"], options: ["socket": ["/s"]], arguments: [:]),
        Case(argv: ["-s=/s", "info"], path: ["info"], options: ["socket": ["/s"]], arguments: [:]),
        Case(argv: ["-jv", "info"], path: ["info"], options: ["json": [""], "verbose": [""]], arguments: [:]),
        Case(argv: ["-jvs", "/s", "info"], path: ["info"],
             options: ["json": [""], "verbose": [""], "socket": ["/s"]], arguments: [:]),
        Case(argv: ["-jvs/s", "info"], path: ["info"],
             options: ["json": [""], "verbose": [""], "socket": ["/s"]], arguments: [:]),
        Case(argv: ["create", "Counter"], path: ["create"], options: [:], arguments: ["TYPE": ["Counter"]]),
        Case(argv: ["create", "Counter", "--id", "c1", "--scope=connection"], path: ["create"],
             options: ["id": ["c1"], "scope": ["connection"]], arguments: ["TYPE": ["Counter"]]),
        Case(argv: ["create", "--arg", "a=1", "Login", "-a", "b=2", "--arg=c=3"], path: ["create"],
             options: ["arg": ["a=1", "b=2", "c=3"]], arguments: ["TYPE": ["Login"]]),
        Case(argv: ["send", "c1", "step"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["c1"], "INPUT": ["step"]]),
        Case(argv: ["send", "c1", "step", "-5"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["c1"], "INPUT": ["step"], "VALUE": ["-5"]]),
        Case(argv: ["send", "c1", "step", "-0.5"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["c1"], "INPUT": ["step"], "VALUE": ["-0.5"]]),
        Case(argv: ["send", "c1", "name", "--", "--not-an-option"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["c1"], "INPUT": ["name"], "VALUE": ["--not-an-option"]]),
        Case(argv: ["send", "--", "-c1", "-i", "-v"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["-c1"], "INPUT": ["-i"], "VALUE": ["-v"]]),
        Case(argv: ["--", "send", "-c1", "-i"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["-c1"], "INPUT": ["-i"]]),
        Case(argv: ["daemon", "--", "stop"], path: ["daemon", "stop"], options: [:], arguments: [:]),
        Case(argv: ["send", "c1", "text", "-"], path: ["send"], options: [:],
             arguments: ["INSTANCE": ["c1"], "INPUT": ["text"], "VALUE": ["-"]]),
        Case(argv: ["watch", "c1"], path: ["watch"], options: [:], arguments: ["INSTANCE": ["c1"]]),
        Case(argv: ["watch", "c1", "a", "b", "--count", "-1"], path: ["watch"], options: ["count": ["-1"]],
             arguments: ["INSTANCE": ["c1"], "OUTPUT": ["a", "b"]]),
        Case(argv: ["watch", "-n3", "c1", "-t", "2.5"], path: ["watch"],
             options: ["count": ["3"], "timeout": ["2.5"]], arguments: ["INSTANCE": ["c1"]]),
        Case(argv: ["daemon", "start"], path: ["daemon", "start"], options: [:], arguments: [:]),
        Case(argv: ["daemon", "--json", "status", "-v"], path: ["daemon", "status"],
             options: ["json": [""], "verbose": [""]], arguments: [:]),
        Case(argv: ["completion", "fish"], path: ["completion"], options: [:], arguments: ["SHELL": ["fish"]]),
        Case(argv: ["debug-dump"], path: ["debug-dump"], options: [:], arguments: [:]),
    ]

    @Test("every accepted form yields the expected path, options and arguments", arguments: cases)
    func acceptedForm(_ testCase: Case) throws {
        let parsed = try SampleSpec.parser.parse(testCase.argv)
        #expect(parsed.path == testCase.path)
        #expect(parsed.optionValues == testCase.options)
        #expect(parsed.argumentValues == testCase.arguments)
        #expect(parsed.isHelpRequested == false)
        #expect(parsed.command.name == testCase.path.last)
    }

    @Test("typed accessors read flags, values, repeated values and positionals")
    func typedAccessors() throws {
        let parsed = try SampleSpec.parser.parse(
            ["-j", "watch", "c1", "x", "y", "--count", "12", "--socket", "/run/vmd.sock"])
        #expect(parsed.flag("json"))
        #expect(!parsed.flag("verbose"))
        #expect(parsed.value("socket") == "/run/vmd.sock")
        #expect(parsed.value("timeout") == nil)
        #expect(try parsed.int("count") == 12)
        #expect(try parsed.int("timeout") == nil)
        #expect(parsed.positional("INSTANCE") == "c1")
        #expect(parsed.positionals("OUTPUT") == ["x", "y"])
        #expect(parsed.commandPath == ["vmctl", "watch"])
        #expect(parsed.usage == "vmctl watch [options] INSTANCE [OUTPUT]...")
    }

    @Test("values gathers a repeatable option in command-line order")
    func repeatableOrder() throws {
        let parsed = try SampleSpec.parser.parse(["create", "T", "-a", "z=1", "--arg", "a=2"])
        #expect(parsed.values("arg") == ["z=1", "a=2"])
        #expect(parsed.value("arg") == "a=2")
    }

    @Test("an integer positional parses, and a bad one names the argument")
    func integerPositional() throws {
        let good = try SampleSpec.parser.parse(["send", "c1", "step", "-7"])
        #expect(try good.intPositional("VALUE") == -7)
        let bad = try SampleSpec.parser.parse(["send", "c1", "step", "seven"])
        #expect(throws: UsageError(.notAnInteger(name: "VALUE", value: "seven"), commandPath: ["vmctl", "send"],
                                   usage: "vmctl send [options] INSTANCE INPUT [VALUE]")) {
            try bad.intPositional("VALUE")
        }
    }

    @Test("help is requested by --help, -h or the help subcommand, for the right command",
          arguments: [
              (["--help"], [String]()), (["-h"], []), (["help"], []),
              (["help", "create"], ["create"]), (["create", "--help"], ["create"]),
              (["get", "-h", "too", "many", "args"], ["get"]), (["help", "daemon", "stop"], ["daemon", "stop"]),
              (["daemon", "-h"], ["daemon"]), (["help", "get", "--json"], ["get"]),
          ])
    func helpRequested(argv: [String], path: [String]) throws {
        let parsed = try SampleSpec.parser.parse(argv)
        #expect(parsed.isHelpRequested)
        #expect(parsed.path == path)
    }

    @Test("--help after -- is an argument, not a request for help")
    func helpAfterDoubleDash() throws {
        let parsed = try SampleSpec.parser.parse(["send", "c1", "text", "--", "--help"])
        #expect(!parsed.isHelpRequested)
        #expect(parsed.positional("VALUE") == "--help")
    }

    @Test("the sample spec has no problems, and bad specs are reported")
    func specValidation() {
        #expect(SampleSpec.root.validationProblems() == [])
        let bad = CommandSpec(
            name: "x", summary: "",
            arguments: [ArgumentSpec("A", arity: .variadic, help: ""), ArgumentSpec("B", help: "")],
            options: [.flag("f", short: "f", help: ""), .flag("f", help: ""), .flag("help", help: "")],
            subcommands: [
                CommandSpec(name: "help", summary: ""),
                CommandSpec(name: "y", summary: "", options: [.flag("g", short: "f", help: "")]),
            ])
        #expect(bad.validationProblems() == [
            "x: option --f declared twice",
            "x: --help and -h are built in",
            "x: variadic argument A is not last",
            "x: required argument B follows an optional one",
            "x: a command takes either arguments or subcommands, not both",
            "x: subcommand help declared twice",
            "x y: -f means both --f and --g",
        ])
    }
}
