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
        let socatGet = Command(executable: socat, arguments: ["-", "UNIX-CONNECT:" + socket], input: requestFile)
        let vmctlVersion = Command(executable: vmctl, arguments: ["--version"], input: "/dev/null")
        // Check they answer the same before timing anything.
        let checked = directory + "/check.out"
        _ = try vmctlGet.time(output: checked)
        let vmctlSays = String(decoding: try FileSystem.readFile(checked), as: UTF8.self)
        _ = try FileSystem.remove(checked)
        _ = try socatGet.time(output: checked)
        let socatSays = String(decoding: try FileSystem.readFile(checked), as: UTF8.self)
        print("vmctl get prints \(vmctlSays.debugDescription); socat prints \(socatSays.debugDescription)")

        var samples: [String: [Double]] = ["vmctl get": [], "socat": [], "vmctl --version": []]
        for _ in 0..<5 {  // warm-up: page cache, dynamic loader
            _ = try vmctlGet.time()
            _ = try socatGet.time()
        }
        for _ in 0..<runs {  // interleaved, so drift on a noisy machine hits all three alike
            samples["vmctl get"]?.append(try vmctlGet.time())
            samples["socat"]?.append(try socatGet.time())
            samples["vmctl --version"]?.append(try vmctlVersion.time())
        }
        let vmctlMedian = median(samples["vmctl get"] ?? [])
        let socatMedian = median(samples["socat"] ?? [])
        let versionMedian = median(samples["vmctl --version"] ?? [])
        print("whole-process time, median of \(runs) runs each (interleaved):")
        print("  vmctl get bench count          \(milliseconds(vmctlMedian))")
        print("  printf ... | socat - UNIX-CONNECT  \(milliseconds(socatMedian))  (request from a file, no shell)")
        print("  vmctl --version (no socket)    \(milliseconds(versionMedian))")
        print("  ratio vmctl / socat: \(ratio(vmctlMedian, socatMedian))  (aim: within 3x)")
    }

    /// A program to run whole, timed from spawn to reaped.
    struct Command {
        let executable: String
        let arguments: [String]
        let input: String

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
