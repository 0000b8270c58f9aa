// Client receive rate (issue 27): how fast each client takes a busy instance's outputs off its
// socket. One vmd, one Counter; each receiver is its own process (ClientReceivers.swift) that
// opens `subscriptions` subscriptions to the Counter's `count` on one connection, says it is
// ready, and then takes `notifications` vm.output notifications: this process pipelines
// notifications / subscriptions increments, so every increment is one notification per
// subscription. Each receiver times its own first to last notification; the rate is
// notifications per second, and its CPU time (all its threads) per notification is printed
// beside it: on a machine shared with other work the rate shows scheduling as much as cost. The three receivers, in the same run, interleaved, median of
// `rounds` each:
//   raw       a blocking Swift socket reader counting lines (the floor: no parsing at all)
//   vmclient  VMClient: subscribe, then iterate every VMSubscription
//   python    clients/python's synchronous Client: subscribe, then next() on each
// The daemon runs with a 1 GiB outbound bound so that no receiver is coalesced: every
// receiver takes every notification, however slow it is.

#if canImport(Glibc)
import Glibc
#endif
import Posix

func runClientReceiveBenchmarks() {
    do {
        try ClientReceiveBenchmark().run()
    } catch {
        print("client receive benchmark failed: \(error)")
    }
}

private struct ClientReceiveBenchmark {
    let subscriptions = 16
    let notifications = 160_000
    let rounds = 3

    func run() throws {
        let directory = try FileSystem.makeTemporaryDirectory(template: "/tmp/vmdr-XXXXXX")
        let daemon = try BenchDaemon(vmdPath: try BenchDaemon.besideBench(), directory: directory,
                                     arguments: ["--max-outbound-bytes", "1073741824"])
        defer { daemon.stop() }
        let owner = try daemon.connectWhenListening { try BenchDaemon.connectClient(to: $0) }
        defer { try? owner.close() }
        try owner.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"vm.create","params":{"type":"Counter","id":"busy"}}"#.utf8) + [10])
        let created = try ReceiveBenchLine.read(from: owner)
        guard created.contains(#""result""#) else { throw BenchFailure("vm.create failed: \(created)") }

        let line = Array(#"{"jsonrpc":"2.0","method":"vm.send","params":{"instance":"busy","input":"increment"}}"#.utf8) + [10]
        var burst: [UInt8] = []
        burst.reserveCapacity(line.count * notifications / subscriptions)
        for _ in 0..<(notifications / subscriptions) { burst += line }

        var receivers: [ReceiverKind] = [.raw, .vmclient]
        if let python = ReceiverKind.pythonClientDirectory() {
            receivers.append(.python(clientDirectory: python))
        } else {
            print("note: clients/python not found above vmd-bench; the Python client is left out")
        }
        var rates: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for kind in receivers {
                let (wall, cpuNanoseconds) = try measure(kind, daemon: daemon, owner: owner, burst: burst)
                rates[kind.name, default: []].append(Double(notifications - 1) / (Double(wall) / 1e9))
                cpu[kind.name, default: []].append(Double(cpuNanoseconds) / Double(notifications - 1))
            }
        }
        print("receive rate, \(subscriptions) subscriptions on one connection, \(notifications) vm.output each, median of \(rounds) (interleaved):")
        for kind in receivers {
            print("  \(kind.name.padding(9))\(groupedRate(middleValue(rates[kind.name] ?? []))) notifications/s;"
                  + " CPU \(twoDecimals(middleValue(cpu[kind.name] ?? []) / 1000)) µs per notification")
        }
        let raw = middleValue(rates["raw"] ?? [])
        let vmclient = middleValue(rates["vmclient"] ?? [])
        print("  ratio vmclient / raw: \(twoDecimals(vmclient / raw))x  (aim: ≥ 0.5x)")
        if let python = rates["python"] {
            print("  ratio python / raw: \(twoDecimals(middleValue(python) / raw))x")
            print("  ratio vmclient / python: \(twoDecimals(vmclient / middleValue(python)))x  (aim: ≥ 1x)")
        }
        let rawCPU = middleValue(cpu["raw"] ?? []), vmclientCPU = middleValue(cpu["vmclient"] ?? [])
        print("  CPU per notification, raw / vmclient: \(twoDecimals(rawCPU / vmclientCPU))x (the rate ratio on an idle machine,"
              + " unless the daemon is the bound)")
    }

    /// Starts one receiver, waits until it is subscribed, sends the burst, and returns the
    /// receiver's own first-to-last wall and CPU nanoseconds.
    private func measure(_ kind: ReceiverKind, daemon: BenchDaemon, owner: FileDescriptor, burst: [UInt8]) throws -> (UInt64, UInt64) {
        let ready = daemon.directory + "/ready"
        let output = daemon.directory + "/receiver.out"
        _ = try? FileSystem.remove(ready)
        _ = try? FileSystem.remove(output)
        let (executable, arguments, environment) = try kind.command(
            socket: daemon.socketPath, subscriptions: subscriptions, notifications: notifications, ready: ready)
        let child = try ChildProcess.spawn(executable, arguments: arguments, environment: environment,
                                           standardInput: "/dev/null", outputPath: output)
        let start = MonotonicClock.nanoseconds()
        while ((try? FileSystem.info(ready)) ?? nil) == nil {
            if let ended = try child.poll() {
                throw BenchFailure("\(kind.name) receiver \(ended) before it was ready: \(Self.text(output))")
            }
            guard MonotonicClock.nanoseconds() - start < 30_000_000_000 else {
                try? child.send(.terminate)
                _ = try? child.wait()
                throw BenchFailure("\(kind.name) receiver not ready within 30 s")
            }
            CurrentProcess.sleep(for: .milliseconds(2))
        }
        try owner.writeAll(burst)
        let ended = try child.wait()
        let said = Self.text(output).split(separator: "\n").last.map(String.init) ?? ""
        _ = try? FileSystem.remove(output)
        _ = try? FileSystem.remove(ready)
        let figures = said.split(separator: " ").compactMap { UInt64($0) }
        guard ended == .exited(0), figures.count == 2, figures[0] > 0 else {
            throw BenchFailure("\(kind.name) receiver \(ended): \(said)")
        }
        return (figures[0], figures[1])
    }

    private static func text(_ path: String) -> String {
        String(decoding: (try? FileSystem.readFile(path)) ?? [], as: UTF8.self)
    }
}

/// The three receivers and how each is started.
enum ReceiverKind {
    case raw
    case vmclient
    case python(clientDirectory: String)

    var name: String {
        switch self {
        case .raw: "raw"
        case .vmclient: "vmclient"
        case .python: "python"
        }
    }

    /// The receiver's executable, arguments and environment (`nil`: this process's).
    func command(socket: String, subscriptions: Int, notifications: Int, ready: String) throws
        -> (String, [String], [String: String]?)
    {
        let common = [socket, "busy", String(subscriptions), String(notifications), ready]
        switch self {
        case .raw, .vmclient:
            return (try BenchDaemon.ownExecutable(), ["client-receiver", name] + common, nil)
        case .python(let directory):
            var environment = CurrentProcess.environment
            environment["PYTHONPATH"] = directory
            return ("/usr/bin/python3", ["-c", Self.pythonReceiver] + common, environment)
        }
    }

    /// clients/python of the checkout vmd-bench was built in (found upwards from the executable).
    static func pythonClientDirectory() -> String? {
        var directory = (try? BenchDaemon.ownExecutable()).flatMap { FileSystem.parentDirectory(of: $0) }
        while let current = directory, current != "/" {
            let candidate = current + "/clients/python"
            if (try? FileSystem.info(candidate + "/vmd_client/__init__.py")) != nil { return candidate }
            directory = FileSystem.parentDirectory(of: current)
        }
        return nil
    }

    /// The Python receiver: the synchronous Client, as clients/python/README.md teaches it.
    static let pythonReceiver = """
        import sys, time
        from vmd_client import Client
        path, instance, subs, count, ready = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        with Client(path, timeout=60) as vmd:
            subscriptions = [vmd.subscribe(instance, ["count"], replay=False) for _ in range(subs)]
            open(ready, "w").close()
            first = None
            for _ in range(count // subs):
                for subscription in subscriptions:
                    subscription.next(timeout=60)
                    if first is None:
                        first = (time.monotonic_ns(), time.process_time_ns())
            print(time.monotonic_ns() - first[0], time.process_time_ns() - first[1])
        """
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
