import CommandLineKit
import Testing

/// A vmd-like command whose options take part in layered configuration.
enum DaemonSpec {
    static let root = CommandSpec(
        name: "vmd", summary: "Host view models over JSON-RPC.",
        options: [
            .value("config", valueName: "PATH", help: "Read this config file."),
            .flag("print-config", help: "Print the effective configuration and exit."),
            .value("socket", short: "s", valueName: "PATH", help: "Listen here.",
                   environment: "VMD_SOCKET", configKey: "socket"),
            .value("slow-client", valueName: "POLICY", default: "coalesce", allowedValues: ["coalesce", "disconnect"],
                   help: "What to do with slow readers.", environment: "VMD_SLOW_CLIENT", configKey: "slow-client"),
            .value("max-connections", valueName: "N", default: "4096", help: "Connection limit.",
                   environment: "VMD_MAX_CONNECTIONS", configKey: "max-connections"),
            .flag("debug", help: "Log every message.", environment: "VMD_DEBUG", configKey: "debug"),
            .repeatable("allow-type", valueName: "TYPE", help: "Only serve these types.",
                        environment: "VMD_ALLOW_TYPES", configKey: "allow-type"),
            .value("exit-when-idle", valueName: "SECONDS", help: "Exit after this long idle.",
                   environment: "VMD_EXIT_WHEN_IDLE", configKey: "exit-when-idle"),
        ])

    static func resolve(
        _ argv: [String] = [], environment: [String: String] = [:], file text: String? = nil
    ) throws -> EffectiveConfiguration {
        let parsed = try CommandLineParser(root: root).parse(argv)
        let file = try text.map { text throws(ConfigurationError) in try ConfigFile(parsing: text, path: "/home/ann/.config/vmd/vmd.toml") }
        return try ConfigurationResolver(root: root).resolve(commandLine: parsed, environment: environment, file: file)
    }
}

@Suite("Layered configuration")
struct ConfigurationResolverTests {
    /// Which layers set `--max-connections`, and which must win.
    struct Layers: Sendable, CustomTestStringConvertible {
        var flag: Bool
        var env: Bool
        var file: Bool
        var expectedValue: String
        var expectedSource: ValueSource
        var testDescription: String {
            "flag:\(flag) env:\(env) file:\(file) → \(expectedSource)"
        }
    }

    static let precedence: [Layers] = {
        var rows: [Layers] = []
        for flag in [false, true] {
            for env in [false, true] {
                for file in [false, true] {
                    let (value, source): (String, ValueSource) =
                        flag ? ("1", .commandLine(option: "--max-connections"))
                        : env ? ("2", .environment(variable: "VMD_MAX_CONNECTIONS"))
                        : file ? ("3", .file(path: "/home/ann/.config/vmd/vmd.toml", line: 2))
                        : ("4096", .defaultValue)
                    rows.append(Layers(flag: flag, env: env, file: file, expectedValue: value, expectedSource: source))
                }
            }
        }
        return rows
    }()

    @Test("flag beats environment beats file beats default", arguments: precedence)
    func precedenceTable(_ layers: Layers) throws {
        let config = try DaemonSpec.resolve(
            layers.flag ? ["--max-connections", "1"] : [],
            environment: layers.env ? ["VMD_MAX_CONNECTIONS": "2"] : [:],
            file: layers.file ? "# limits\nmax-connections = 3\n" : nil)
        #expect(config.value("max-connections") == layers.expectedValue)
        #expect(config.source("max-connections") == layers.expectedSource)
        #expect(try config.int("max-connections") == Int(layers.expectedValue))
    }

    @Test("flags resolve from each layer, and default to false")
    func flags() throws {
        #expect(try DaemonSpec.resolve().flag("debug") == false)
        #expect(try DaemonSpec.resolve().source("debug") == .defaultValue)
        #expect(try DaemonSpec.resolve(["--debug"], environment: ["VMD_DEBUG": "0"]).flag("debug"))
        #expect(try DaemonSpec.resolve(environment: ["VMD_DEBUG": "off"], file: "debug = true").flag("debug") == false)
        #expect(try DaemonSpec.resolve(file: "debug = true").flag("debug"))
    }

    @Test("environment booleans accept the usual spellings",
          arguments: [("1", true), ("true", true), ("YES", true), ("on", true),
                      ("0", false), ("false", false), ("No", false), ("OFF", false)])
    func environmentBooleans(text: String, expected: Bool) throws {
        #expect(try DaemonSpec.resolve(environment: ["VMD_DEBUG": text]).flag("debug") == expected)
    }

    @Test("an empty environment variable counts as unset")
    func emptyVariable() throws {
        let config = try DaemonSpec.resolve(environment: ["VMD_SOCKET": ""], file: "socket = \"/f.sock\"")
        #expect(config.value("socket") == "/f.sock")
    }

    @Test("repeatable options take a list from the file, a comma list from the environment, and repeated flags")
    func repeatable() throws {
        #expect(try DaemonSpec.resolve(file: "allow-type = [\"Counter\", \"Login\"]").values("allow-type") == ["Counter", "Login"])
        #expect(try DaemonSpec.resolve(file: "allow-type = \"Counter\"").values("allow-type") == ["Counter"])
        #expect(try DaemonSpec.resolve(environment: ["VMD_ALLOW_TYPES": "A, B,,C "]).values("allow-type") == ["A", "B", "C"])
        let config = try DaemonSpec.resolve(["--allow-type", "X", "--allow-type", "Y"],
                                            environment: ["VMD_ALLOW_TYPES": "A"], file: "allow-type = [\"F\"]")
        #expect(config.values("allow-type") == ["X", "Y"])
        #expect(try DaemonSpec.resolve().values("allow-type") == [])
    }

    @Test("only options with an environment variable or config key take part")
    func onlyConfigurable() throws {
        let config = try DaemonSpec.resolve(["--print-config", "--config", "/x"])
        #expect(config.settings.map(\.key) == [
            "socket", "slow-client", "max-connections", "debug", "allow-type", "exit-when-idle",
        ])
        #expect(config.setting("print-config") == nil)
        #expect(config.source("exit-when-idle") == .unset)
        #expect(config.value("exit-when-idle") == nil)
        #expect(try config.int("exit-when-idle") == nil)
    }

    @Test("every bad value names where it came from",
          arguments: [
              ([String](), ["VMD_SLOW_CLIENT": "drop"], nil as String?,
               "error: environment variable VMD_SLOW_CLIENT: invalid value 'drop': expected one of coalesce, disconnect"),
              ([], ["VMD_SLOW_CLIENT": "disconect"], nil,
               "error: environment variable VMD_SLOW_CLIENT: invalid value 'disconect': expected one of coalesce, disconnect; did you mean 'disconnect'?"),
              ([], ["VMD_DEBUG": "maybe"], nil,
               "error: environment variable VMD_DEBUG: invalid value 'maybe': expected true or false (also 1/0, yes/no, on/off)"),
              ([], [:], "\nmax-conections = 5",
               "error: /home/ann/.config/vmd/vmd.toml:2: unknown key 'max-conections'; did you mean 'max-connections'?"),
              ([], [:], "colour = true",
               "error: /home/ann/.config/vmd/vmd.toml:1: unknown key 'colour'; known keys: socket, slow-client, max-connections, debug, allow-type, exit-when-idle"),
              ([], [:], "debug = \"yes\"",
               "error: /home/ann/.config/vmd/vmd.toml:1: key 'debug' expects true or false, not a string (\"yes\")"),
              ([], [:], "socket = true",
               "error: /home/ann/.config/vmd/vmd.toml:1: key 'socket' expects a single string or integer, not a boolean (true)"),
              ([], [:], "socket = [\"a\"]",
               "error: /home/ann/.config/vmd/vmd.toml:1: key 'socket' expects a single string or integer, not a list ([\"a\"])"),
              ([], [:], "allow-type = [\"A\", false]",
               "error: /home/ann/.config/vmd/vmd.toml:1: key 'allow-type' expects a list of strings, but an element is a boolean (false)"),
              ([], [:], "allow-type = true",
               "error: /home/ann/.config/vmd/vmd.toml:1: key 'allow-type' expects a list of strings, not a boolean (true)"),
              (["--slow-client", "coalesce"], [:], "# ok\n\nslow-client = \"fast\"",
               "error: /home/ann/.config/vmd/vmd.toml:3: invalid value 'fast': expected one of coalesce, disconnect"),
          ])
    func badValue(argv: [String], environment: [String: String], file: String?, text: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try DaemonSpec.resolve(argv, environment: environment, file: file)
        }
        #expect(error.description == text)
        #expect(error.exitCode == 2)
    }

    @Test("a non-integer names its source when read as an integer")
    func integerErrors() throws {
        let fromEnv = try DaemonSpec.resolve(environment: ["VMD_MAX_CONNECTIONS": "lots"])
        #expect(throws: ConfigurationError("invalid value 'lots' for max-connections: expected an integer",
                                           at: .environment(variable: "VMD_MAX_CONNECTIONS"))) {
            try fromEnv.int("max-connections")
        }
        let fromFlag = try DaemonSpec.resolve(["--max-connections", "x"])
        let error = try #require(throws: ConfigurationError.self) { try fromFlag.int("max-connections") }
        #expect(error.description == "error: option --max-connections: invalid value 'x': expected an integer")
    }

    @Test("print-config output is aligned, in file syntax, with each value's source")
    func renderedGolden() throws {
        let config = try DaemonSpec.resolve(
            ["--socket", "/run/user/1000/vmd.sock", "--allow-type", "Counter", "--allow-type", "Log\"in"],
            environment: ["VMD_SLOW_CLIENT": "disconnect", "VMD_DEBUG": ""],
            file: "# vmd\nmax-connections = 100\ndebug = false\n")
        #expect(config.rendered() == """
            socket          = "/run/user/1000/vmd.sock"  # flag --socket
            slow-client     = "disconnect"               # env VMD_SLOW_CLIENT
            max-connections = 100                        # file /home/ann/.config/vmd/vmd.toml:2
            debug           = false                      # file /home/ann/.config/vmd/vmd.toml:3
            allow-type      = ["Counter", "Log\\"in"]     # flag --allow-type
            # exit-when-idle is not set

            """)
    }

    @Test("the rendered configuration reads back as a config file with the same values")
    func renderedRoundTrip() throws {
        let config = try DaemonSpec.resolve(
            ["--socket", "/tmp/a b.sock", "--debug", "--allow-type", "A", "--exit-when-idle", "30"],
            environment: ["VMD_MAX_CONNECTIONS": "007"])
        let reread = try DaemonSpec.resolve(file: config.rendered())
        for setting in config.settings {
            #expect(reread.values(setting.option.long) == setting.values, "\(setting.key)")
        }
        #expect(reread.value("max-connections") == "007", "not an integer literal, so it stays a quoted string")
    }
}
