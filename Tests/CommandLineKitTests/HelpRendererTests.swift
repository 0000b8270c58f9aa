@testable import CommandLineKit
import Testing

@Suite("Help text")
struct HelpRendererTests {
    let renderer = HelpRenderer(root: SampleSpec.root)

    @Test("the root help lists subcommands, options, examples and exit codes")
    func rootGolden() {
        #expect(renderer.help(for: []) == """
            Drive a running vmd daemon from the shell.

            Usage: vmctl [options] SUBCOMMAND

            vmctl talks JSON-RPC to vmd over a Unix socket. The socket is found by --socket,
            then VMD_SOCKET, then $XDG_RUNTIME_DIR/vmd.sock.

            Subcommands:
              info        Show the daemon's version, limits and counters.
              create      Create a view-model instance.
              get         Print the current value of a state output.
              send        Send a value to an input.
              watch       Stream outputs until interrupted.
              daemon      Start, stop or query a vmd without a service manager.
              completion  Print a shell completion script.
              help        Show help for a subcommand.

            Options:
              -s, --socket PATH  The daemon's socket. (env: VMD_SOCKET)
              -j, --json         Print exactly the JSON results, one per line.
              -v, --verbose      Say more.
              -h, --help         Show this help.

            Examples:
              vmctl create Counter --id c1
                  Create a counter called c1.
              vmctl watch c1 --count 3
                  Print the next three outputs of c1.

            Exit codes:
              0  Success.
              1  The daemon answered with an error; the message is on standard error.
              2  Usage error.
              3  Cannot reach the daemon; the message says how to start it.

            Run 'vmctl help SUBCOMMAND' for details on a subcommand.

            """)
    }

    @Test("a subcommand's help shows its arguments, its options with notes, and global options aligned")
    func subcommandGolden() {
        #expect(renderer.help(for: ["create"]) == """
            Create a view-model instance.

            Usage: vmctl create [options] TYPE

            Arguments:
              TYPE  The view-model type, as listed by 'vmctl types'.

            Options:
                  --id ID          The instance id; generated when absent.
              -a, --arg KEY=VALUE  A creation argument. (repeatable)
                  --scope SCOPE    Who owns the instance. (one of: daemon, connection;
                                   default: daemon)
              -h, --help           Show this help.

            Global options:
              -s, --socket PATH    The daemon's socket. (env: VMD_SOCKET)
              -j, --json           Print exactly the JSON results, one per line.
              -v, --verbose        Say more.

            Examples:
              vmctl create Login --arg user=ann
                  Create a login form.

            """)
    }

    @Test("a nested command group points at help for its own subcommands")
    func nestedGroupGolden() {
        #expect(renderer.help(for: ["daemon"]) == """
            Start, stop or query a vmd without a service manager.

            Usage: vmctl daemon [options] SUBCOMMAND

            Subcommands:
              start   Start vmd detached and wait until it answers.
              stop    Ask vmd to shut down.
              status  Say whether vmd is running.

            Options:
              -h, --help         Show this help.

            Global options:
              -s, --socket PATH  The daemon's socket. (env: VMD_SOCKET)
              -j, --json         Print exactly the JSON results, one per line.
              -v, --verbose      Say more.

            Run 'vmctl help daemon SUBCOMMAND' for details on a subcommand.

            """)
    }

    @Test("a program without subcommands gets no subcommand table and no help row")
    func leafRootGolden() {
        let vmd = CommandSpec(
            name: "vmd", summary: "Host view models over JSON-RPC on a Unix socket.",
            options: [
                .value("slow-client", valueName: "POLICY", default: "coalesce",
                       allowedValues: ["coalesce", "disconnect"],
                       help: "What to do with a client that does not read its notifications fast enough.",
                       environment: "VMD_SLOW_CLIENT", configKey: "slow-client"),
                .flag("print-config", help: "Print the effective configuration and where each value came from."),
                .flag("trace", help: "Internal.", isHidden: true),
            ])
        #expect(HelpRenderer(root: vmd).help(for: []) == """
            Host view models over JSON-RPC on a Unix socket.

            Usage: vmd [options]

            Options:
                  --slow-client POLICY  What to do with a client that does not read its
                                        notifications fast enough. (one of: coalesce,
                                        disconnect; default: coalesce; env: VMD_SLOW_CLIENT)
                  --print-config        Print the effective configuration and where each
                                        value came from.
              -h, --help                Show this help.

            """)
    }

    @Test("hidden subcommands stay out of help, and an unknown path falls back to the deepest known command")
    func hiddenAndFallback() {
        #expect(!renderer.help(for: []).contains("debug-dump"))
        #expect(renderer.help(for: ["daemon", "nope"]) == renderer.help(for: ["daemon"]))
    }

    @Test("allowed values of an argument are listed")
    func argumentValues() {
        #expect(renderer.help(for: ["completion"]).contains("  SHELL  The shell. (one of: bash, zsh, fish)\n"))
    }

    @Test("no line of any help page is wider than the width", arguments: [80, 60, 40])
    func widthIsRespected(width: Int) {
        let narrow = HelpRenderer(root: SampleSpec.root, width: width)
        for path in [[], ["create"], ["watch"], ["daemon"], ["daemon", "start"], ["send"]] as [[String]] {
            for line in narrow.help(for: path).split(separator: "\n") {
                #expect(line.count <= width, "\(path): \(line)")
            }
        }
    }
}

@Suite("Wrapping and tables")
struct TextLayoutTests {
    @Test("words wrap at the width with a hanging prefix")
    func wrapsWords() {
        #expect(TextLayout.wrap("aaa bbb ccc ddd", width: 8, firstPrefix: "> ", prefix: "  ") == [
            "> aaa", "  bbb", "  ccc", "  ddd",
        ])
        #expect(TextLayout.wrap("aaa bbb ccc", width: 11) == ["aaa bbb ccc"])
        #expect(TextLayout.wrap("aaa bbb ccc", width: 10) == ["aaa bbb", "ccc"])
    }

    @Test("a word longer than the line stands alone instead of being split")
    func longWord() {
        #expect(TextLayout.wrap("a abcdefghijkl b", width: 5) == ["a", "abcdefghijkl", "b"])
    }

    @Test("line breaks and blank lines in the text are kept")
    func paragraphs() {
        #expect(TextLayout.wrap("one\n\ntwo", width: 20, firstPrefix: "  ", prefix: "  ") == ["  one", "", "  two"])
    }

    @Test("a term wider than the column puts its definition on the next line")
    func wideTerm() {
        let rows = [(term: "short", definition: "fits"), (term: String(repeating: "x", count: 30), definition: "below")]
        #expect(TextLayout.table(rows, width: 80) == [
            "  short                       fits",
            "  " + String(repeating: "x", count: 30),
            "                              below",
        ])
    }
}
