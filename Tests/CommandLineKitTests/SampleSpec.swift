import CommandLineKit

/// A vmctl-like command tree used by the parser, help and completion tests.
enum SampleSpec {
    static let root = CommandSpec(
        name: "vmctl",
        summary: "Drive a running vmd daemon from the shell.",
        discussion: "vmctl talks JSON-RPC to vmd over a Unix socket. The socket is found by "
            + "--socket, then VMD_SOCKET, then $XDG_RUNTIME_DIR/vmd.sock.",
        examples: [
            CommandExample("vmctl create Counter --id c1", "Create a counter called c1."),
            CommandExample("vmctl watch c1 --count 3", "Print the next three outputs of c1."),
        ],
        options: [
            .value("socket", short: "s", valueName: "PATH", help: "The daemon's socket.", environment: "VMD_SOCKET"),
            .flag("json", short: "j", help: "Print exactly the JSON results, one per line."),
            .flag("verbose", short: "v", help: "Say more."),
        ],
        subcommands: [
            CommandSpec(name: "info", summary: "Show the daemon's version, limits and counters."),
            CommandSpec(
                name: "create", summary: "Create a view-model instance.",
                examples: [CommandExample("vmctl create Login --arg user=ann", "Create a login form.")],
                arguments: [ArgumentSpec("TYPE", help: "The view-model type, as listed by 'vmctl types'.")],
                options: [
                    .value("id", valueName: "ID", help: "The instance id; generated when absent."),
                    .repeatable("arg", short: "a", valueName: "KEY=VALUE", help: "A creation argument."),
                    .value("scope", valueName: "SCOPE", default: "daemon",
                           allowedValues: ["daemon", "connection"], help: "Who owns the instance."),
                ]),
            CommandSpec(
                name: "get", summary: "Print the current value of a state output.",
                arguments: [
                    ArgumentSpec("INSTANCE", help: "The instance id."),
                    ArgumentSpec("OUTPUT", help: "The output name."),
                ]),
            CommandSpec(
                name: "send", summary: "Send a value to an input.",
                arguments: [
                    ArgumentSpec("INSTANCE", help: "The instance id."),
                    ArgumentSpec("INPUT", help: "The input name."),
                    ArgumentSpec("VALUE", arity: .optional, help: "JSON if it parses as JSON, else a string."),
                ]),
            CommandSpec(
                name: "watch", summary: "Stream outputs until interrupted.",
                arguments: [
                    ArgumentSpec("INSTANCE", help: "The instance id."),
                    ArgumentSpec("OUTPUT", arity: .variadic, help: "Outputs to watch; all when none."),
                ],
                options: [
                    .value("count", short: "n", valueName: "N", help: "Stop after N events."),
                    .value("timeout", short: "t", valueName: "SECONDS", help: "Stop after SECONDS."),
                ]),
            CommandSpec(
                name: "daemon", summary: "Start, stop or query a vmd without a service manager.",
                subcommands: [
                    CommandSpec(name: "start", summary: "Start vmd detached and wait until it answers."),
                    CommandSpec(name: "stop", summary: "Ask vmd to shut down."),
                    CommandSpec(name: "status", summary: "Say whether vmd is running."),
                ]),
            CommandSpec(
                name: "completion", summary: "Print a shell completion script.",
                arguments: [ArgumentSpec("SHELL", allowedValues: ["bash", "zsh", "fish"], help: "The shell.")]),
            CommandSpec(name: "debug-dump", summary: "Dump internal state.", isHidden: true),
        ],
        sections: [
            HelpSection("Exit codes", rows: [
                .init("0", "Success."),
                .init("1", "The daemon answered with an error; the message is on standard error."),
                .init("2", "Usage error."),
                .init("3", "Cannot reach the daemon; the message says how to start it."),
            ]),
        ])

    static let parser = CommandLineParser(root: root)
}
