// (s) The same toggle over the real socket: the release `vmd` beside vmd-bench, 10 subscriber
// connections reading every byte, and the daemon's own CPU time (utime + stime from
// /proc/PID/stat) per change, patch subscribers vs value subscribers in alternating rounds of
// the same run. Each change is a vm.send request; its reply and every subscriber's
// notification are read before the next, so no subscriber ever falls behind (no overflow).

import Foundation
import JSONCore
import Posix

func runPatchSocketBenchmark(items: Int, subscribers: Int, changes: Int, rounds: Int) {
    do {
        try PatchSocketBench(items: items, subscribers: subscribers).run(changes: changes, rounds: rounds)
    } catch {
        print("(s) patch socket benchmark failed: \(error)")
    }
}

private struct SocketBenchFailure: Error, CustomStringConvertible {
    let description: String
}

private final class PatchSocketBench {
    let items: Int
    let subscribers: Int
    let directory: String

    init(items: Int, subscribers: Int) throws {
        self.items = items
        self.subscribers = subscribers
        directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdpb-XXXXXX")
    }

    func run(changes: Int, rounds: Int) throws {
        let own = CommandLine.arguments.first ?? "vmd-bench"
        let absolute = own.hasPrefix("/") ? own : (CurrentProcess.workingDirectory ?? ".") + "/" + own
        let vmdPath = (FileSystem.parentDirectory(of: absolute) ?? ".") + "/vmd"
        guard (try? FileSystem.info(vmdPath, followingSymlinks: true)) != nil else {
            throw SocketBenchFailure(description: "no vmd beside vmd-bench at \(vmdPath); build it first")
        }
        let socketPath = directory + "/vmd.sock"
        let child = try ChildProcess.spawn(
            vmdPath, arguments: ["--socket", socketPath, "--state-dir", directory + "/state", "--log-level", "warning"],
            environment: CurrentProcess.environment.filter { !$0.key.hasPrefix("LISTEN_") && $0.key != "NOTIFY_SOCKET" },
            standardInput: "/dev/null", outputPath: directory + "/vmd.log")
        defer {
            try? child.send(.terminate)
            _ = try? child.wait()
        }
        try waitUntilListening(socketPath)
        var patchCPU: [Double] = [], valueCPU: [Double] = []
        var patchBytes = 0.0, valueBytes = 0.0
        for round in 0..<rounds {
            for patches in [true, false] {
                let (cpu, bytes) = try measure(socketPath, pid: child.pid, list: "todo-\(round)-\(patches)", patches: patches, changes: changes)
                if patches { patchCPU.append(cpu); patchBytes = bytes } else { valueCPU.append(cpu); valueBytes = bytes }
            }
        }
        let patch = patchCPU.sorted()[rounds / 2], value = valueCPU.sorted()[rounds / 2]
        print("(s) over the socket, one toggle in a \(items)-item TodoList, \(subscribers) subscribers reading:")
        print("    bytes read per subscriber per change: patches \(Int(patchBytes.rounded())), values \(Int(valueBytes.rounded()))")
        print("    daemon CPU per change (utime+stime): patch subscribers \(milliseconds(patch)), value subscribers \(milliseconds(value))")
    }

    /// Daemon CPU seconds per change and bytes per subscriber per change.
    private func measure(_ path: String, pid: Int32, list: String, patches: Bool, changes: Int) throws -> (Double, Double) {
        let writer = try Connection(path: path)
        var seeds: [JSONValue] = []
        for index in 0..<items { seeds.append(["title": .string("Item number \(index) of the benchmark list")]) }
        let create: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "vm.create", "params": ["type": "TodoList", "id": .string(list), "args": ["items": .array(seeds)]]]
        guard try writer.call(create.encodedBytes())["result"] != nil else { throw SocketBenchFailure(description: "vm.create failed") }
        var readers: [Connection] = []
        for _ in 0..<subscribers {
            let reader = try Connection(path: path)
            let subscribe: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "vm.subscribe", "params": ["instance": .string(list), "outputs": ["items"], "patches": .bool(patches)]]
            _ = try reader.call(subscribe.encodedBytes())
            _ = try reader.readLine()  // the replay
            reader.bytesRead = 0
            readers.append(reader)
        }
        let before = try cpuSeconds(pid)
        for change in 0..<changes {
            let id = 1 + (change * 7919) % items
            _ = try writer.call(Array(#"{"jsonrpc":"2.0","id":2,"method":"vm.send","params":{"instance":"\#(list)","input":"toggle","value":\#(id)}}"#.utf8))
            for reader in readers { _ = try reader.readLine() }
        }
        let cpu = try cpuSeconds(pid) - before
        let bytes = readers.reduce(0) { $0 + $1.bytesRead }
        _ = try writer.call(Array(#"{"jsonrpc":"2.0","id":3,"method":"vm.destroy","params":{"instance":"\#(list)"}}"#.utf8))
        writer.close()
        for reader in readers { reader.close() }
        return (cpu / Double(changes), Double(bytes) / Double(changes * subscribers))
    }

    private func cpuSeconds(_ pid: Int32) throws -> Double {
        let text = String(decoding: try FileSystem.readFile("/proc/\(pid)/stat"), as: UTF8.self)
        // Fields after the command name's closing parenthesis: state is field 3, utime 14, stime 15.
        guard let close = text.lastIndex(of: ")") else { throw SocketBenchFailure(description: "unreadable /proc/\(pid)/stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw SocketBenchFailure(description: "unreadable /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private func waitUntilListening(_ path: String) throws {
        let start = MonotonicClock.nanoseconds()
        while MonotonicClock.nanoseconds() - start < 20_000_000_000 {
            if let socket = try? UnixSocket.connect(to: UnixSocketAddress(path: path)) {
                try socket.close()
                return
            }
            CurrentProcess.sleep(for: .milliseconds(5))
        }
        throw SocketBenchFailure(description: "vmd did not listen within 20 s; see \(directory)/vmd.log")
    }
}

/// A blocking line connection with a receive timeout, counting the bytes it reads.
private final class Connection {
    let socket: FileDescriptor
    var bytesRead = 0
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 262_144)

    init(path: String) throws {
        socket = try BenchDaemon.connectClient(to: path)
    }

    func close() { try? socket.close() }

    /// Writes one request line and returns the first response (a line with an "id").
    func call(_ request: [UInt8]) throws -> JSONValue {
        try socket.writeAll(request + [10])
        while true {
            let message = try JSONValue(parsing: Array(try readLine().utf8))
            if message["id"] != nil { return message }
        }
    }

    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let result = try chunk.withUnsafeMutableBytes { try socket.read(into: $0) }
            switch result {
            case .bytes(let count):
                bytesRead += count
                buffer.append(contentsOf: chunk[0..<count])
            case .endOfFile: throw SocketBenchFailure(description: "the daemon closed the connection")
            case .wouldBlock: throw SocketBenchFailure(description: "nothing within 30 s")
            }
        }
    }
}

private func milliseconds(_ seconds: Double) -> String {
    "\((seconds * 1e5).rounded() / 100) ms"
}
