// vmd-bench: every benchmark of vmd, each suite printing its figures as ratios against a
// baseline measured in the same run (the machines are noisy; absolute numbers are not comparable).
// Usage: vmd-bench [SUITE...]   (no suite: all of them)
//        vmd-bench soak [--seconds N] [--short] [--rss-margin-mb M]
//        vmd-bench client-receiver raw|vmclient …  (one receiver of the clientrecv suite)
//        vmd-bench echo-server PATH   (the echo baseline's own process; the suites start it)

#if canImport(Glibc)
import Glibc
#endif

let suites: [(name: String, run: () -> Void)] = [
    // Each layer adds its suite here: ("name", runNameBenchmarks),
    ("reactive", runReactiveBenchmarks),
    ("json", runJSONBenchmarks),
    ("server", runServerBenchmarks),
    ("daemon", runDaemonBenchmarks),
    ("vmctl", runVMCtlBenchmarks),
    ("patch", runPatchBenchmarks),
    ("fanout", runFanOutBenchmarks),
    ("sessions", runSessionBenchmarks),
    ("sendpath", runSendPathBenchmarks),
    ("create", runCreateBenchmarks),
    ("sharding", runShardingBenchmarks),
    ("durable", runDurableBenchmarks),
    ("clientrecv", runClientReceiveBenchmarks),
    ("startup", runStartupBenchmarks),
]

// `vmd-bench soak …` is a load run with its own options and exit status (Soak.swift).
if CommandLine.arguments.dropFirst().first == "soak" {
    exit(runSoak(Array(CommandLine.arguments.dropFirst(2))))
}

// `vmd-bench client-receiver KIND …` is one receiver of the clientrecv suite (ClientReceivers.swift).
if CommandLine.arguments.dropFirst().first == "client-receiver" {
    exit(runClientReceiver(Array(CommandLine.arguments.dropFirst(2))))
}

// `vmd-bench echo-server PATH` is the echo baseline's own process (DaemonBenchmarks.swift).
if CommandLine.arguments.dropFirst().first == "echo-server", CommandLine.arguments.count == 3 {
    do {
        try LineEchoServer.serve(path: CommandLine.arguments[2])
        exit(0)
    } catch {
        print("echo-server: \(error)")
        exit(1)
    }
}

let wanted = Array(CommandLine.arguments.dropFirst())
for suite in suites where wanted.isEmpty || wanted.contains(suite.name) {
    print("== \(suite.name)")
    suite.run()
}
