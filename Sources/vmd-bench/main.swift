// vmd-bench: every benchmark of vmd, each suite printing its figures as ratios against a
// baseline measured in the same run (the machines are noisy; absolute numbers are not comparable).
// Usage: vmd-bench [SUITE...]   (no suite: all of them)
//        vmd-bench soak [--seconds N] [--short] [--rss-margin-mb M]

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
]

// `vmd-bench soak …` is a load run with its own options and exit status (Soak.swift).
if CommandLine.arguments.dropFirst().first == "soak" {
    exit(runSoak(Array(CommandLine.arguments.dropFirst(2))))
}

let wanted = Array(CommandLine.arguments.dropFirst())
for suite in suites where wanted.isEmpty || wanted.contains(suite.name) {
    print("== \(suite.name)")
    suite.run()
}
