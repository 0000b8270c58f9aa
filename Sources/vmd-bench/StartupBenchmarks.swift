// Start-up (issue 27): from exec to the first answer. This process spawns the server, connects
// as soon as the socket accepts (tried every 50 µs), sends one request line and times until
// the reply line, then stops the server. The baseline is a tiny C Unix-socket server started
// the same way and answering the same line, compiled here with the system `cc` at bench time
// (it is not a package target). Interleaved, median of `runs` each; vmd's idle RSS is read
// from /proc once it has answered (an empty store: XDG_STATE_HOME is a fresh directory).
// VMD_STARTUP_ALSO="label=/path/to/vmd:label2=/path2" measures other builds of vmd in the same
// interleaved run (a `--static-swift-stdlib` build, an experiment), each against the same C
// server; `.ci/startup` builds the static variant and passes it here.

#if canImport(Glibc)
import Glibc
#endif
import Posix

func runStartupBenchmarks() {
    do {
        try StartupBenchmark().run()
    } catch {
        print("start-up benchmark failed: \(error)")
    }
}

private struct StartupBenchmark {
    let runs = 40

    func run() throws {
        let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmds-XXXXXX")
        defer { cleanUp(directory) }
        let vmd = try BenchDaemon.besideBench()
        let cServer = try compileCServer(in: directory)
        var environment = CurrentProcess.environment.filter { !$0.key.hasPrefix("LISTEN_") && $0.key != "NOTIFY_SOCKET" }
        environment["XDG_STATE_HOME"] = directory
        let socket = directory + "/s.sock"
        let variants = [("vmd", vmd)] + (try Self.otherBuilds(CurrentProcess.environment["VMD_STARTUP_ALSO"]))
        let commands = variants.map { ($0.1, ["--socket", socket, "--log-level", "warning"]) }
        let cCommand = (cServer, [socket])
        for command in commands {  // warm-up
            _ = try firstAnswer(command, socket: socket, environment: environment, directory: directory)
        }
        _ = try firstAnswer(cCommand, socket: socket, environment: environment, directory: directory)
        var times = Array(repeating: [Double](), count: commands.count)
        var residentBytes = Array(repeating: [Double](), count: commands.count)
        var cTimes: [Double] = []
        for _ in 0..<runs {
            for (index, command) in commands.enumerated() {
                let (time, resident) = try firstAnswer(command, socket: socket, environment: environment, directory: directory)
                times[index].append(time)
                residentBytes[index].append(Double(resident))
            }
            cTimes.append(try firstAnswer(cCommand, socket: socket, environment: environment, directory: directory).0)
        }
        let cMedian = middleValue(cTimes)
        print("exec to first answer (daemon.info), median of \(runs) runs each, interleaved:")
        for (index, variant) in variants.enumerated() {
            let median = middleValue(times[index])
            print("  \(variant.0.padding(toWidth: 12))\(microsText(UInt64(median))) µs; idle RSS"
                  + " \(twoDecimals(middleValue(residentBytes[index]) / 1_048_576)) MiB;"
                  + " ratio to C \(twoDecimals(median / cMedian))x  (aim: ≤ 2x)")
        }
        print("  \("C server".padding(toWidth: 12))\(microsText(UInt64(cMedian))) µs")
    }

    /// The builds named in `VMD_STARTUP_ALSO` (`label=path`, separated by `:`).
    private static func otherBuilds(_ text: String?) throws -> [(String, String)] {
        guard let text, !text.isEmpty else { return [] }
        return try text.split(separator: ":").map { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw BenchFailure("VMD_STARTUP_ALSO: '\(item)' is not label=path")
            }
            let path = String(parts[1])
            guard (try? FileSystem.info(path, followingSymlinks: true)) != nil else {
                throw BenchFailure("VMD_STARTUP_ALSO: no file at \(path)")
            }
            return (String(parts[0]), path)
        }
    }

    /// Spawns `command`, and returns the nanoseconds to its first reply and its RSS then.
    private func firstAnswer(_ command: (String, [String]), socket: String, environment: [String: String],
                             directory: String) throws -> (Double, Int) {
        _ = try? FileSystem.remove(socket)
        let start = MonotonicClock.nanoseconds()
        let child = try ChildProcess.spawn(command.0, arguments: command.1, environment: environment,
                                           standardInput: "/dev/null", outputPath: directory + "/server.log")
        defer {
            try? child.send(.terminate)
            _ = try? child.wait()
        }
        var connection: FileDescriptor?
        while connection == nil {
            connection = try? UnixSocket.connect(to: UnixSocketAddress(path: socket))
            if connection != nil { break }
            if let ended = try child.poll() { throw BenchFailure("\(command.0) \(ended) before listening") }
            guard MonotonicClock.nanoseconds() - start < 20_000_000_000 else { throw BenchFailure("\(command.0) did not listen in 20 s") }
            CurrentProcess.sleep(for: .microseconds(50))
        }
        guard let connection else { throw BenchFailure("no connection") }
        defer { try? connection.close() }
        try UnixSocket.setTimeout(connection, receive: true, .seconds(20))
        try connection.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.info"}"#.utf8) + [10])
        let reply = try ReceiveBenchLine.read(from: connection)
        let elapsed = MonotonicClock.nanoseconds() - start
        guard reply.contains(#""result""#) else { throw BenchFailure("\(command.0) answered \(reply)") }
        let resident = (try? BenchDaemon.residentBytes(pid: child.pid)) ?? 0
        return (Double(elapsed), resident)
    }

    /// Writes and compiles the baseline server; returns its path.
    private func compileCServer(in directory: String) throws -> String {
        let source = directory + "/cserver.c", binary = directory + "/cserver"
        let file = try FileDescriptor.open(source, [.writeOnly, .create, .truncate])
        try file.writeAll(Array(Self.cSource.utf8))
        try file.close()
        let compiler = try ChildProcess.spawn("cc", arguments: ["-O2", "-o", binary, source], searchPath: true,
                                              standardInput: "/dev/null", outputPath: directory + "/cc.log")
        guard try compiler.wait() == .exited(0) else {
            throw BenchFailure("cc failed: \(String(decoding: (try? FileSystem.readFile(directory + "/cc.log")) ?? [], as: UTF8.self))")
        }
        return binary
    }

    private func cleanUp(_ directory: String) {
        for name in ["s.sock", "server.log", "cserver.c", "cserver", "cc.log"] { _ = try? FileSystem.remove(directory + "/" + name) }
        _ = try? FileSystem.removeDirectory(directory + "/vmd")  // vmd's state directory, if it made one
        try? FileSystem.removeDirectory(directory)
    }

    /// The baseline: bind, listen, answer each connection's first line with one reply line.
    static let cSource = """
        #include <string.h>
        #include <sys/socket.h>
        #include <sys/un.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            if (argc != 2) return 2;
            int server = socket(AF_UNIX, SOCK_STREAM, 0);
            struct sockaddr_un address;
            memset(&address, 0, sizeof address);
            address.sun_family = AF_UNIX;
            strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
            unlink(argv[1]);
            if (bind(server, (struct sockaddr *)&address, sizeof address) != 0 || listen(server, 64) != 0) return 1;
            static const char reply[] = "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{}}\\n";
            for (;;) {
                int client = accept(server, 0, 0);
                if (client < 0) continue;
                char buffer[4096];
                size_t used = 0;
                ssize_t got;
                while (used < sizeof buffer && (got = read(client, buffer + used, sizeof buffer - used)) > 0) {
                    used += (size_t)got;
                    if (memchr(buffer, '\\n', used)) break;
                }
                if (write(client, reply, sizeof reply - 1) < 0) { /* the client left */ }
                close(client);
            }
        }
        """
}

extension String {
    /// The string padded with spaces to `width` characters (at least one space after it).
    fileprivate func padding(toWidth width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
