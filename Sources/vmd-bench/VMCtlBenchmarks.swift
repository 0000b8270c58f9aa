// vmctl benchmark: whole-process time of one `vmctl get INSTANCE count` against the built vmd,
// next to `socat` making the same call (the request line on its standard input), measured in
// the same run, interleaved, and given as a ratio. Also `vmctl --version` (no socket at all),
// which shows how much of vmctl's time is process start.
import JSONCore
import Posix
import VMClient

func runVMCtlBenchmarks() {
    do {
        try VMCtlBenchmark().run()
    } catch {
        print("vmctl benchmark skipped: \(error)")
    }
}

private struct VMCtlBenchmark {
    let runs = 200

    func run() throws {
        let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdb-XXXXXX")
        defer { cleanUp(directory) }
        let socket = directory + "/vmd.sock"
        let vmd = try sibling("vmd")
        let vmctl = try sibling("vmctl")
        let socat = try onPath("socat")
        let daemon = try ChildProcess.spawn(vmd, arguments: ["--socket", socket], standardInput: "/dev/null",
                                            outputPath: directory + "/vmd.log")
        defer {
            try? daemon.send(.terminate)
            _ = try? daemon.wait()
        }
        let connection = try waitForDaemon(socket, daemon)
        try connection.call("vm.create", ["type": "Counter", "id": "bench", "args": ["start": 42]])

        let request = #"{"jsonrpc":"2.0","id":1,"method":"vm.get","params":{"instance":"bench","output":"count"}}"# + "\n"
        let requestFile = directory + "/request.json"
        let file = try FileDescriptor.open(requestFile, [.writeOnly, .create, .truncate])
        try file.writeAll(Array(request.utf8))
        try file.close()

        let vmctlGet = Command(executable: vmctl, arguments: ["--socket", socket, "get", "bench", "count"], input: "/dev/null")
        // vmd keeps a connection whose peer shut down its writing side open until the peer hangs
        // up (it may still be reading replies), so socat, after sending, lingers for its `-t`
        // (0.5 s by default) before it exits. With `-t 0.001` it measures its own cost, but may
        // exit before the reply arrives: such runs are counted as lost and left out of its median.
        let socatGet = Command(executable: socat, arguments: ["-t", "0.001", "-", "UNIX-CONNECT:" + socket], input: requestFile)
        let socatAsWritten = Command(executable: socat, arguments: ["-", "UNIX-CONNECT:" + socket], input: requestFile)
        let vmctlVersion = Command(executable: vmctl, arguments: ["--version"], input: "/dev/null")
        let output = directory + "/check.out"
        _ = try vmctlGet.time(output: output)
        let vmctlSays = String(decoding: try FileSystem.readFile(output), as: UTF8.self)
        _ = try FileSystem.remove(output)
        _ = try socatGet.time(output: output)
        let socatSays = String(decoding: try FileSystem.readFile(output), as: UTF8.self)
        _ = try FileSystem.remove(output)
        print("vmctl get prints \(vmctlSays.debugDescription); socat prints \(socatSays.debugDescription)")

        for _ in 0..<5 {  // warm-up: page cache, dynamic loader
            _ = try vmctlGet.time()
            _ = try socatGet.time()
        }
        var vmctlSamples: [Double] = []
        var socatSamples: [Double] = []
        var versionSamples: [Double] = []
        var lost = 0
        for _ in 0..<runs {  // interleaved, so drift on a noisy machine hits all three alike
            vmctlSamples.append(try vmctlGet.time(checkingOutputIn: output))
            if let sample = try? socatGet.time(checkingOutputIn: output) { socatSamples.append(sample) } else { lost += 1 }
            versionSamples.append(try vmctlVersion.time())
        }
        var asWritten: [Double] = []
        for _ in 0..<5 { asWritten.append(try socatAsWritten.time(checkingOutputIn: output)) }
        let vmctlMedian = median(vmctlSamples)
        let socatMedian = median(socatSamples)
        print("whole-process time, median of \(runs) runs each (interleaved; every vmctl reply checked):")
        print("  vmctl get bench count                            \(milliseconds(vmctlMedian))")
        print("  socat -t 0.001 - UNIX-CONNECT (request on stdin) \(milliseconds(socatMedian))  (\(lost) of \(runs) runs lost the reply)")
        print("  vmctl --version (no socket: the start-up floor)  \(milliseconds(median(versionSamples)))")
        print("  socat as in the README (default -t 0.5), 5 runs  \(milliseconds(median(asWritten)))")
        print("  ratio vmctl get / socat -t 0.001: \(ratio(vmctlMedian, socatMedian))  (aim: within 3x)")
        print("  ratio vmctl get / socat as in the README: \(ratio(vmctlMedian, median(asWritten)))")
    }

    /// A program to run whole, timed from spawn to reaped.
    struct Command {
        let executable: String
        let arguments: [String]
        let input: String

        /// Times one run whose standard output goes to `checkingOutputIn` (appended), and fails
        /// unless that output grew: a run that lost its reply is not a fast run.
        func time(checkingOutputIn path: String) throws -> Double {
            let before = (try? FileSystem.info(path))??.size ?? 0
            let elapsed = try time(output: path)
            let after = (try? FileSystem.info(path))??.size ?? 0
            guard after > before else { throw BenchmarkError("\(executable) \(arguments) printed nothing") }
            return elapsed
        }

        func time(output: String = "/dev/null") throws -> Double {
            let start = MonotonicClock.nanoseconds()
            let child = try ChildProcess.spawn(executable, arguments: arguments, standardInput: input, outputPath: output)
            let ended = try child.wait()
            let elapsed = MonotonicClock.nanoseconds() - start
            guard ended == .exited(0) else { throw BenchmarkError("\(executable) \(arguments) \(ended)") }
            return Double(elapsed)
        }
    }

    private func waitForDaemon(_ socket: String, _ daemon: ChildProcess) throws -> VMBlockingConnection {
        let deadline = MonotonicClock.nanoseconds() + 20_000_000_000
        let idle = try FileDescriptor.pipe()
        while MonotonicClock.nanoseconds() < deadline {
            if let ended = try daemon.poll() { throw BenchmarkError("vmd \(ended) before listening") }
            if let connection = try? VMBlockingConnection.connect(to: VMSocketLocation(path: socket)) { return connection }
            _ = try idle.read.wait(for: .readable, timeout: .milliseconds(5))
        }
        throw BenchmarkError("vmd did not listen within 20 s")
    }

    /// A built executable beside this benchmark's own.
    private func sibling(_ name: String) throws -> String {
        let own = CommandLine.arguments.first ?? ""
        let directory = FileSystem.parentDirectory(of: own) ?? "."
        let path = directory + "/" + name
        guard (try? FileSystem.info(path, followingSymlinks: true))??.kind == .regular else {
            throw BenchmarkError("no \(name) beside vmd-bench (build it: swift build -c release)")
        }
        return path
    }

    private func onPath(_ name: String) throws -> String {
        for directory in (CurrentProcess.environmentValue("PATH") ?? "").split(separator: ":") {
            let path = String(directory) + "/" + name
            if (try? FileSystem.info(path, followingSymlinks: true))??.kind == .regular { return path }
        }
        throw BenchmarkError("\(name) is not on PATH (apt-get install \(name))")
    }

    private func cleanUp(_ directory: String) {
        for name in ["vmd.sock", "vmd.log", "request.json", "check.out"] { _ = try? FileSystem.remove(directory + "/" + name) }
        try? FileSystem.removeDirectory(directory)
    }

    private func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }

    private func milliseconds(_ nanoseconds: Double) -> String {
        let hundredths = Int((nanoseconds / 10_000).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    private func ratio(_ value: Double, _ baseline: Double) -> String {
        guard baseline > 0 else { return "n/a" }
        let hundredths = Int((value / baseline * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)x"
    }
}

private struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
