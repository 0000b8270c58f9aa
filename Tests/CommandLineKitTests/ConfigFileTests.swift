import CommandLineKit
import Testing

@Suite("Config file parsing")
struct ConfigFileTests {
    @Test("each value form parses to its value",
          arguments: [
              ("k = \"text\"", ConfigValue.string("text")),
              ("k=\"\"", .string("")),
              ("k = \"a \\\"quoted\\\" \\\\ word\\n\\t\"", .string("a \"quoted\" \\ word\n\t")),
              ("k = \"\\u00e9\\U0001F600\"", .string("é😀")),
              ("k = \"héllo wörld\"", .string("héllo wörld")),
              ("k = 'C:\\path\\n'", .string("C:\\path\\n")),
              ("k = 42", .integer(42)),
              ("k = -7", .integer(-7)),
              ("k = +3", .integer(3)),
              ("k = 0", .integer(0)),
              ("k = 1_000_000", .integer(1_000_000)),
              ("k = true", .boolean(true)),
              ("k = false", .boolean(false)),
              ("k = []", .array([])),
              ("k = [\"a\", 'b', 3, true,]", .array([.string("a"), .string("b"), .integer(3), .boolean(true)])),
              ("\t k\t=\t\"x\"\t# trailing comment", .string("x")),
              ("k = \"# not a comment\"", .string("# not a comment")),
              ("k = [ \"a\" ] # list", .array([.string("a")])),
          ])
    func valueForms(line: String, expected: ConfigValue) throws {
        let file = try ConfigFile(parsing: line, path: "t.toml")
        #expect(file.entries == [ConfigFile.Entry(key: "k", value: expected, line: 1)])
    }

    @Test("comments, blank lines and CRLF endings are skipped and line numbers are kept")
    func layout() throws {
        let text = "# header\r\n\r\n  # indented comment\nsocket = \"/s\"\r\n\nmax_conn-2 = 5\n"
        let file = try ConfigFile(parsing: text, path: "t.toml")
        #expect(file.entries == [
            ConfigFile.Entry(key: "socket", value: .string("/s"), line: 4),
            ConfigFile.Entry(key: "max_conn-2", value: .integer(5), line: 6),
        ])
        #expect(file.entry("socket")?.line == 4)
        #expect(file.entry("nope") == nil)
    }

    @Test("an empty file has no entries")
    func emptyFile() throws {
        #expect(try ConfigFile(parsing: "", path: "t.toml").entries.isEmpty)
    }

    @Test("each malformed line is reported with its line number and what to write",
          arguments: [
              ("[server]", "tables like '[server]' are not supported; write 'key = value' lines at the top level"),
              ("= 3", "expected a key (letters, digits, '-' or '_') at the start of the line, found '= 3'"),
              ("\"quoted\" = 1", "expected a key (letters, digits, '-' or '_') at the start of the line, found '\"quoted\" = 1'"),
              ("a.b = 1", "dotted keys like 'a.b' are not supported; use a plain key"),
              ("socket", "expected '=' after key 'socket', found the end of the line"),
              ("socket : 1", "expected '=' after key 'socket', found ': 1'"),
              ("socket =", "missing value for key 'socket'; write socket = \"...\", a number, true or false"),
              ("socket = # none", "missing value for key 'socket'; write socket = \"...\", a number, true or false"),
              ("socket = /tmp/vmd.sock", "strings must be quoted: write socket = \"/tmp/vmd.sock\""),
              ("debug = yes", "strings must be quoted: write debug = \"yes\""),
              ("socket = \"/tmp", "unterminated string for key 'socket'; add the closing \""),
              ("socket = '/tmp", "unterminated string for key 'socket'; add the closing '"),
              ("s = \"\"\"x\"\"\"", "multi-line strings (\"\"\") are not supported"),
              ("s = '''x'''", "multi-line strings (''') are not supported"),
              ("s = \"a\\qb\"", "invalid escape '\\q' in a string; valid escapes are \\\" \\\\ \\n \\t \\r \\b \\f \\uXXXX \\UXXXXXXXX"),
              ("s = \"\\u12\"", "invalid escape '\\u12\"': expected 4 hex digits naming a Unicode scalar"),
              ("s = \"\\uD800\"", "invalid escape '\\uD800': expected 4 hex digits naming a Unicode scalar"),
              ("n = 1.5", "'1.5' for key 'n' is not an integer; decimals are not supported"),
              ("n = 1e3", "'1e3' for key 'n' is not an integer; decimals are not supported"),
              ("n = 0x1F", "'0x1F' for key 'n': only decimal integers are supported"),
              ("n = 007", "'007' for key 'n' is not a valid integer"),
              ("n = 1__0", "'1__0' for key 'n' is not a valid integer"),
              ("n = 10_", "'10_' for key 'n' is not a valid integer"),
              ("n = -", "'-' for key 'n' is not a valid integer"),
              ("n = 99999999999999999999", "'99999999999999999999' for key 'n' is out of range"),
              ("n = 1 2", "unexpected '2' after the value of 'n'; put comments after '#'"),
              ("s = \"a\" \"b\"", "unexpected '\"b\"' after the value of 's'; put comments after '#'"),
              ("l = [\"a\"", "the list for key 'l' must close with ']' on the same line"),
              ("l = [\"a\" \"b\"]", "expected ',' or ']' in the list for key 'l', found '\"b\"]'"),
              ("l = [[1]]", "nested lists are not supported (key 'l')"),
          ])
    func malformedLine(line: String, message: String) throws {
        let text = "# first line is fine\nok = 1\n" + line + "\n"
        let error = try #require(throws: ConfigurationError.self) { try ConfigFile(parsing: text, path: "/etc/vmd.toml") }
        #expect(error.description == "error: /etc/vmd.toml:3: " + message)
        #expect(error.source == .file(path: "/etc/vmd.toml", line: 3))
    }

    @Test("a key set twice names both lines")
    func duplicateKey() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ConfigFile(parsing: "a = 1\nb = 2\na = 3\n", path: "c.toml")
        }
        #expect(error.description == "error: c.toml:3: key 'a' is already set on line 1; set each key once")
    }

    @Test("a control character inside a string is rejected")
    func controlCharacter() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ConfigFile(parsing: "s = \"a\u{01}b\"", path: "c.toml")
        }
        #expect(error.message == "control character in the string for key 's'; write it as an escape like \\n")
    }

    @Test("values print back in file syntax",
          arguments: [
              (ConfigValue.string("a \"b\"\n\u{01}"), "\"a \\\"b\\\"\\n\\u0001\""),
              (.integer(-3), "-3"), (.boolean(true), "true"),
              (.array([.string("x"), .integer(1)]), "[\"x\", 1]"),
          ])
    func printsBack(value: ConfigValue, text: String) throws {
        #expect(value.description == text)
        #expect(try ConfigFile(parsing: "k = " + text, path: "p").entry("k")?.value == value)
    }

    @Test("the standard path follows XDG_CONFIG_HOME, then HOME")
    func standardPath() {
        #expect(ConfigFile.standardPath(directory: "vmd", fileName: "vmd.toml",
                                        environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/vmd/vmd.toml")
        #expect(ConfigFile.standardPath(directory: "vmd", fileName: "vmd.toml",
                                        environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/vmd/vmd.toml")
        #expect(ConfigFile.standardPath(directory: "vmd", fileName: "vmd.toml", environment: [:]) == nil)
    }
}
