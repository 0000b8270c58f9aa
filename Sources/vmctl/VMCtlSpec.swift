import CommandLineKit
import VMProtocol

/// vmctl's whole command line as one table: parsing, help, `--help` examples and the
/// completion scripts all come from it, so they cannot disagree.
enum VMCtlSpec {
    static let version = VMDVersion.current

    private static let instanceArgument = ArgumentSpec("INSTANCE", help: "An instance id, as listed by 'vmctl list'.")
    private static let valueHelp = "A value, read by its schema: a string where a string is expected (5 is \"5\" for a string input), JSON where JSON is (5, true, {\"a\":1})."

    static let root = CommandSpec(
        name: "vmctl",
        summary: "Drive a running vmd daemon from the shell.",
        discussion: """
            vmctl talks JSON-RPC to vmd over its Unix socket. The socket is --socket PATH, else \
            $VMD_SOCKET, else $XDG_RUNTIME_DIR/vmd.sock, else /tmp/vmd-$UID/vmd.sock.

            Output is for people by default: aligned tables, one line per event, colour on a \
            terminal (never with NO_COLOR). With --json, vmctl prints exactly the JSON result, \
            one JSON text per line (per event for watch and monitor), for jq and scripts.

            A VALUE is read by the schema 'vmctl types TYPE' shows for it: 'vmctl send c1 set 5' \
            sends the number 5 to an integer input, 'vmctl send f1 type 5' the string "5" to a \
            string input, and text that is not JSON is a string. When a schema takes both a \
            string and the JSON the word reads as, vmctl asks you to choose: '"5"' is the string.
            """,
        examples: [
            CommandExample("vmctl daemon start", "Start vmd in the background (without a service manager)."),
            CommandExample("vmctl create Counter --id c1 --arg start=5", "Create a counter called c1, starting at 5."),
            CommandExample("vmctl send c1 increment 2", "Push 2 into its increment input."),
            CommandExample("vmctl get c1 count", "Print its count: 7."),
            CommandExample("vmctl watch c1 --count 3", "Print its next three values (the current one first)."),
            CommandExample("vmctl --json list | jq -r '.instances[].instance'", "Script with the JSON results."),
        ],
        options: [
            .value("socket", short: "s", valueName: "PATH", help: "The daemon's socket.", environment: "VMD_SOCKET"),
            .flag("json", short: "j", help: "Print exactly the JSON results, one JSON text per line."),
            .flag("version", help: "Print vmctl's version and exit."),
        ],
        subcommands: [
            CommandSpec(
                name: "info", summary: "Show the daemon's version, counters and limits.",
                examples: [CommandExample("vmctl info", "Version, pid, uptime, instances, connections, limits.")]),
            CommandSpec(
                name: "types", summary: "List the view-model types, or describe one.",
                discussion: "Without TYPE: one line per type. With TYPE: its creation arguments, inputs, outputs (state or event) and actions, each with its value's type.",
                examples: [
                    CommandExample("vmctl types", "Every type the daemon serves."),
                    CommandExample("vmctl types Login", "What a Login takes and shows."),
                ],
                arguments: [ArgumentSpec("TYPE", arity: .optional, help: "A type name, as listed by 'vmctl types'.")]),
            CommandSpec(
                name: "create", summary: "Create a view-model instance and print its id.",
                discussion: "Scope 'connection' destroys the instance when vmctl's connection closes, that is at once: it is for scripts that use 'vmctl call'.",
                examples: [
                    CommandExample("vmctl create Counter", "Create a counter with a generated id (counter-1)."),
                    CommandExample("vmctl create Login --id login --arg latencyMs=300", "Create a login form called login."),
                    CommandExample("vmctl create Counter --id visits --durable", "A counter that comes back after a restart."),
                    CommandExample("vmctl create Follow --id f1 --record", "Create f1 and record it from its creation ('vmctl tape f1')."),
                ],
                arguments: [ArgumentSpec("TYPE", help: "The view-model type, as listed by 'vmctl types'.")],
                options: [
                    .value("id", valueName: "ID", help: "The instance id (letters, digits, . _ : -); generated when absent."),
                    .repeatable("arg", short: "a", valueName: "KEY=VALUE", help: "A creation argument; VALUE read by the argument's schema."),
                    .value("scope", valueName: "SCOPE", default: "daemon", allowedValues: ["daemon", "connection"],
                           help: "Who owns the instance."),
                    .flag("durable", help: "Keep the instance, and what it saves, across daemon restarts (daemon scope only)."),
                    .flag("record", help: "Record the instance from its creation (read the tape with 'vmctl tape')."),
                ]),
            CommandSpec(
                name: "list", summary: "List the live instances.",
                examples: [CommandExample("vmctl list", "Instance, type, scope, subscribers and parent, one per line.")]),
            CommandSpec(
                name: "destroy", summary: "Destroy an instance (its watchers see it close).",
                examples: [CommandExample("vmctl destroy c1", "Destroy c1 and its children.")],
                arguments: [instanceArgument]),
            CommandSpec(
                name: "send", summary: "Push a value into an input.",
                discussion: "Returns once the daemon has processed the value. Without VALUE the input's default applies.",
                examples: [
                    CommandExample("vmctl send c1 increment", "Increment by the default step."),
                    CommandExample("vmctl send login email ann@example.com", "Type an email (a string)."),
                    CommandExample("vmctl send c1 set -- -3", "Negative numbers need no '--', but it does no harm."),
                ],
                arguments: [
                    instanceArgument,
                    ArgumentSpec("INPUT", help: "The input's name, as listed by 'vmctl types TYPE'."),
                    ArgumentSpec("VALUE", arity: .optional, help: valueHelp),
                ]),
            CommandSpec(
                name: "exec", summary: "Run an action and print its value.",
                discussion: "Waits for the action to finish; Ctrl-C cancels it in the daemon ($/cancelRequest) and exits 130. "
                    + "The action's progress goes to standard error: a bar with a percentage on a terminal, one line per report otherwise, "
                    + "the vm.progress params as JSON lines with --json (standard output keeps only the result).",
                examples: [
                    CommandExample("vmctl exec c1 reset", "Reset the counter; prints 0."),
                    CommandExample("vmctl exec login submit --timeout-ms 5000", "Sign in, giving up after 5 s."),
                    CommandExample("vmctl exec outbox send --timeout-ms 2000 --reset-timeout-on-progress", "Send, giving up after 2 s without progress."),
                ],
                arguments: [
                    instanceArgument,
                    ArgumentSpec("ACTION", help: "The action's name, as listed by 'vmctl types TYPE'."),
                    ArgumentSpec("VALUE", arity: .optional, help: valueHelp),
                ],
                options: [
                    .value("timeout-ms", valueName: "N", help: "Cancel the action unless it finishes within N milliseconds."),
                    .flag("reset-timeout-on-progress", help: "Restart --timeout-ms at each progress the action reports."),
                    .flag("no-progress", help: "Do not ask for the action's progress."),
                ]),
            CommandSpec(
                name: "get", summary: "Print the current value of a state output.",
                discussion: "Strings print without quotes, but the empty string prints as \"\", and a string that is itself quoted JSON in its JSON form: the words 'vmctl send' reads back as those strings. --json prints the JSON result.",
                examples: [CommandExample("vmctl get c1 count", "Print the count.")],
                arguments: [
                    instanceArgument,
                    ArgumentSpec("OUTPUT", help: "A state output's name, as listed by 'vmctl types TYPE'."),
                ]),
            CommandSpec(
                name: "watch", summary: "Print an instance's outputs as they change.",
                discussion: "Prints the current value of every watched state output first (unless --no-replay), then one line per new value, until interrupted, --count values (current ones included), --count-changes new values, --timeout, or the instance is destroyed. A dropped connection is resumed (session.resume, within the daemon's session grace) and watching goes on with continuing seq; notes about it go to standard error.",
                examples: [
                    CommandExample("vmctl watch login", "Every output of login, live."),
                    CommandExample("vmctl watch c1 count --count 3", "The current count and the next two, then exit."),
                    CommandExample("vmctl watch c1 count --count-changes 1", "The current count and the next change, then exit."),
                    CommandExample("vmctl --json watch c1 | jq .value", "One JSON vm.output per line."),
                ],
                arguments: [
                    instanceArgument,
                    ArgumentSpec("OUTPUT", arity: .variadic, help: "Outputs to watch; every output when none."),
                ],
                options: [
                    .value("count", short: "n", valueName: "N", help: "Exit after N printed values, the replayed current values included."),
                    .value("count-changes", valueName: "N", help: "Exit after N new values; the replayed current values do not count."),
                    .value("timeout", short: "t", valueName: "SECONDS", help: "Exit after SECONDS (decimals allowed)."),
                    .flag("no-replay", help: "Skip the current values; print only new ones."),
                    .flag("patches", help: "Ask for RFC 6902 patches; a patched value prints as OUTPUT ~ op path value."),
                ]),
            CommandSpec(
                name: "call", summary: "Call any method with raw JSON params and print the result.",
                discussion: "JSON-PARAMS is a JSON object; '-' reads it from standard input. Without --json the result is pretty-printed.",
                examples: [
                    CommandExample("vmctl call vm.get '{\"instance\":\"c1\",\"output\":\"count\"}'", "Same as 'vmctl get c1 count', raw."),
                    CommandExample("echo '{}' | vmctl call daemon.info -", "Params from standard input."),
                    CommandExample("vmctl call rpc.discover", "The OpenRPC document."),
                ],
                arguments: [
                    ArgumentSpec("METHOD", help: "The method, as listed by 'vmctl call rpc.discover'."),
                    ArgumentSpec("JSON-PARAMS", arity: .optional, help: "The params object, or '-' for standard input."),
                ]),
            CommandSpec(
                name: "monitor", summary: "Print every message the daemon receives and sends, live.",
                discussion: "For debugging, like 'busctl monitor'. Only the daemon's own user may monitor.",
                examples: [CommandExample("vmctl monitor", "Watch all traffic until Ctrl-C.")],
                options: [
                    .value("count", short: "n", valueName: "N", help: "Exit after N messages."),
                    .value("timeout", short: "t", valueName: "SECONDS", help: "Exit after SECONDS (decimals allowed)."),
                ]),
            CommandSpec(
                name: "tape", summary: "Write the tape of an instance recorded from its creation (NDJSON).",
                discussion: "The instance must have been created with record: true ('vmctl create TYPE --record', or vmd --record-all); the tape holds its type and creation arguments, then every input, action (with its outcome) and output, each with its time. The instance keeps running and recording. A tape whose oldest events went past the daemon's bound says so (fromCreation: false) and does not replay.",
                examples: [
                    CommandExample("vmctl tape f1 -o follow.tape", "Write f1's tape so far; 'vmctl replay follow.tape' checks it."),
                ],
                arguments: [instanceArgument],
                options: [
                    .value("output", short: "o", valueName: "FILE", help: "Write the tape to FILE instead of standard output."),
                ]),
            CommandSpec(
                name: "record", summary: "Record what happens to an instance from now on as a tape (NDJSON).",
                discussion: "Attaches to a running instance, so the tape starts mid-life (fromCreation: false): its first values are the instance's current ones, and an instance that loads at creation may replay differently; for a tape from the creation use 'vmctl create --record' and 'vmctl tape'. Writes the instance's type, then every input pushed, action executed (with its outcome) and output emitted, one JSON line each, until the instance is destroyed, interrupted, --count events or --timeout. The daemon does not keep creation arguments: give them with --args so a replay creates the same instance. Only the daemon's own user may record (it uses a monitor).",
                examples: [
                    CommandExample("vmctl record c1 -o counter.tape", "Record c1 until Ctrl-C."),
                    CommandExample("vmctl record login --args '{\"latencyMs\":0}' -o login.tape", "Record with the creation arguments."),
                ],
                arguments: [instanceArgument],
                options: [
                    .value("output", short: "o", valueName: "FILE", help: "Write the tape to FILE instead of standard output."),
                    .value("args", valueName: "JSON", help: "The creation arguments to write in the tape's header."),
                    .value("count", short: "n", valueName: "N", help: "Stop after N events."),
                    .value("timeout", short: "t", valueName: "SECONDS", help: "Stop after SECONDS (decimals allowed)."),
                ]),
            CommandSpec(
                name: "replay", summary: "Replay a tape against a fresh instance and compare its outputs.",
                discussion: "Creates a connection-scoped instance of the tape's type and arguments, pushes its inputs and runs its actions in order, each at its recorded time (t, scaled by --speed, or none with --no-wait) and each action's outcome before the next step, then compares each output's sequence of values and each action's outcome. The actions run for real, with the daemon's services: a SendList tape's submit uploads again, a Login's signs in again; replay against a daemon whose services are safe to use. A secret input's value is recorded as \"<redacted>\" and replayed as that: put a test value back in the tape. Exit 0 on a match, 1 with the first divergence or a step not answered within --step-timeout, 2 for a bad tape (not a regular file, over 64 MiB, truncated, wrong version, not recorded from creation, unknown type, arguments the type refuses, a step over the daemon's maxFrameBytes).",
                examples: [
                    CommandExample("vmctl replay Tests/Tapes/counter.tape", "Check that the counter still behaves as recorded."),
                    CommandExample("vmctl replay counter.tape --update", "Accept the new behaviour: rewrite the expectations."),
                    CommandExample("vmctl replay follow.tape --speed 4", "Replay four times faster than recorded."),
                ],
                arguments: [ArgumentSpec("FILE", help: "A tape written by 'vmctl record'.")],
                options: [
                    .flag("update", help: "Rewrite the tape's outputs and outcomes with what the replay produced; prints a diff per output."),
                    .flag("force", help: "With --update: rewrite even when the replay emitted fewer values than the tape recorded."),
                    .value("speed", valueName: "N", default: "1", help: "Send each step at its recorded time divided by N (2: twice as fast)."),
                    .flag("no-wait", help: "Send the steps back to back, ignoring their recorded times."),
                    .value("timeout", short: "t", valueName: "SECONDS", default: "2", help: "How long to wait for outputs after the last step."),
                    .value("step-timeout", valueName: "SECONDS", default: "30", help: "How long one step may wait for the daemon's answer."),
                ]),
            CommandSpec(
                name: "gen", summary: "Generate typed client code from vm.types.",
                discussion: "Reads the daemon's vm.types (or --types FILE, a saved 'vmctl --json types' result, so a build needs no daemon) and writes typed wrappers: python, a module over vmd_client (sync and asyncio classes, TypedDicts, py.typed) for mypy --strict; typescript, a .d.ts for the Node client's typed(client); swift, proxies over VMClient (a JSONConvertible struct per record, a struct per type with send…, execute…, get… and a typed output enum), for apps that do not link the daemon's types. Same input, same bytes. Names that are not identifiers in the language are escaped, never dropped; wire names stay exact.",
                examples: [
                    CommandExample("vmctl gen python -o gen", "Write gen/vmd_types.py and gen/py.typed for every type."),
                    CommandExample("vmctl gen typescript Login Counter -o gen", "Write gen/vmd-types.d.ts for two types."),
                    CommandExample("vmctl gen swift Login -o Sources/App --module LoginClient", "Write Sources/App/LoginClient.swift."),
                    CommandExample("vmctl --json types > types.json; vmctl gen python --types types.json", "Generate from a saved vm.types, to standard output."),
                ],
                arguments: [
                    ArgumentSpec("LANGUAGE", allowedValues: GenCommand.languages, help: "The language to write."),
                    ArgumentSpec("TYPE", arity: .variadic, help: "Types to generate; every type when none."),
                ],
                options: [
                    .value("output", short: "o", valueName: "DIR", help: "Write the files into DIR (made when missing); standard output when absent."),
                    .value("types", valueName: "FILE", help: "Read vm.types from FILE instead of the daemon."),
                    .value("module", valueName: "NAME", help: "The generated module's name (vmd_types, vmd-types, VMDTypes)."),
                ]),
            CommandSpec(
                name: "wait", summary: "Wait until the daemon answers (exit 0), or exit 3 after --timeout.",
                discussion: "For scripts that start a daemon in the background ('vmd &', 'swift run shelfd &') and use it at once: returns as soon as daemon.info is answered at the socket, trying again while nothing listens there yet. Prints nothing (with --json: the daemon.info result).",
                examples: [
                    CommandExample("vmd & vmctl wait", "Start vmd and wait until it serves."),
                    CommandExample("vmctl wait --timeout 120", "Give a daemon that is still being built two minutes."),
                ],
                options: [
                    .value("timeout", short: "t", valueName: "SECONDS", default: "60",
                           help: "How long to wait (decimals allowed); then exit 3."),
                ]),
            CommandSpec(
                name: "daemon", summary: "Start, stop or query vmd without a service manager.",
                subcommands: [
                    CommandSpec(
                        name: "start", summary: "Start vmd in the background and wait until it answers.",
                        discussion: "Runs the vmd next to vmctl's executable, else the one on PATH, detached, with its log in $XDG_STATE_HOME/vmd/vmd.log (else ~/.local/state/vmd/vmd.log). Does nothing when vmd already answers.",
                        examples: [CommandExample("vmctl daemon start", "Start vmd; prints its pid, socket and log.")],
                        options: [
                            .value("vmd", valueName: "PATH", help: "The vmd executable to run."),
                            .value("wait", valueName: "SECONDS", default: "10", help: "How long to wait for vmd to answer."),
                        ]),
                    CommandSpec(
                        name: "stop", summary: "Ask vmd to shut down and wait until its socket is gone.",
                        examples: [CommandExample("vmctl daemon stop", "Stop vmd; its instances are gone.")],
                        options: [
                            .value("wait", valueName: "SECONDS", default: "10", help: "How long to wait for vmd to go."),
                        ]),
                    CommandSpec(
                        name: "status", summary: "Say whether vmd is running (exit 0) or not (exit 3).",
                        examples: [CommandExample("vmctl daemon status", "Pid, version, uptime and socket.")]),
                ]),
            CommandSpec(
                name: "completion", summary: "Print a shell completion script.",
                examples: [
                    CommandExample("source <(vmctl completion bash)", "Complete vmctl in this bash."),
                    CommandExample("vmctl completion fish > ~/.config/fish/completions/vmctl.fish", "Install for fish."),
                ],
                arguments: [ArgumentSpec("SHELL", allowedValues: ["bash", "zsh", "fish"], help: "The shell.")]),
        ],
        sections: [
            HelpSection("Exit codes", rows: [
                .init("0", "Success."),
                .init("1", "The daemon answered with an error (the message and its name are on standard error)."),
                .init("2", "Usage error: unknown option, missing argument, invalid JSON."),
                .init("3", "Cannot reach the daemon; start it with 'vmctl daemon start' or 'vmd &'."),
            ]),
            HelpSection("Environment", rows: [
                .init("VMD_SOCKET", "The daemon's socket, when --socket is not given."),
                .init("XDG_RUNTIME_DIR", "The socket is $XDG_RUNTIME_DIR/vmd.sock when neither is given."),
                .init("XDG_STATE_HOME", "'daemon start' writes vmd's log to $XDG_STATE_HOME/vmd/vmd.log."),
                .init("NO_COLOR", "When set and not empty, never colour the output."),
            ]),
        ])
}
