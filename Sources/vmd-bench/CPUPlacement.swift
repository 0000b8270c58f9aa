#if canImport(Glibc)
import Glibc
#endif
import Posix

/// Where a latency benchmark's client and server threads run (SendPathBenchmarks.swift, S2).
///
/// A round trip over a Unix socket costs one wake-up of the other side per direction; whether
/// that side waits on the same core (a context switch) or on another one (an idle core woken by
/// an interrupt) changes the echo's and the daemon's latency alike, so they are compared only
/// within one placement. Threads are pinned with the `taskset` command: Posix has no
/// `sched_setaffinity`, and Glibc's is hidden from Swift (it needs `_GNU_SOURCE`).
enum CPUPlacement: String, CaseIterable {
    /// Client, echo server thread and every vmd thread on CPU 0.
    case oneCore = "one core"
    /// The client on CPU 0; the echo server thread and every vmd thread on CPU 1.
    case twoCores = "two cores"
    /// Every thread may run on every online CPU: the scheduler decides, as in production.
    case unpinned = "unpinned"

    /// The CPU list (`taskset -c` syntax) of the client and of the server.
    var cpus: (client: String, server: String) {
        switch self {
        case .oneCore: return ("0", "0")
        case .twoCores: return ("0", "1")
        case .unpinned: return (Affinity.allCPUs, Affinity.allCPUs)
        }
    }

    /// The placements this machine can offer: all of them with a `taskset` command and two
    /// online CPUs, only `.unpinned` otherwise.
    static var available: [CPUPlacement] {
        guard Affinity.tasksetPath != nil else { return [.unpinned] }
        return Affinity.onlineCPUs >= 2 ? allCases : [.oneCore, .unpinned]
    }
}

/// Thread placement through `taskset` and `/proc`.
enum Affinity {
    /// The `taskset` executable, if the machine has one.
    static let tasksetPath: String? = ["/usr/bin/taskset", "/bin/taskset"].first {
        (try? FileSystem.info($0, followingSymlinks: true)) != nil
    }

    /// The number of online CPUs.
    static var onlineCPUs: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Every online CPU in `taskset -c` syntax ("0-1").
    static var allCPUs: String { onlineCPUs == 1 ? "0" : "0-\(onlineCPUs - 1)" }

    /// Restricts thread `tid` (every thread of process `tid` when `wholeProcess`) to `cpus`.
    static func pin(_ tid: Int32, to cpus: String, wholeProcess: Bool = false) throws {
        guard let taskset = tasksetPath else { throw BenchFailure("no taskset command") }
        let child = try ChildProcess.spawn(
            taskset, arguments: (wholeProcess ? ["-a"] : []) + ["-p", "-c", cpus, "\(tid)"],
            standardInput: "/dev/null", outputPath: "/dev/null")
        let ended = try child.wait()
        guard ended == .exited(0) else { throw BenchFailure("taskset -c \(cpus) \(tid) \(ended)") }
    }

    /// The thread ids of process `pid` (the entries of /proc/PID/task).
    static func threadIDs(of pid: Int32) -> Set<Int32> {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var ids: Set<Int32> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let id = Int32(name) { ids.insert(id) }
        }
        return ids
    }

    /// The CPU thread `tid` of process `pid` last ran on (field 39 of /proc/PID/task/TID/stat).
    static func lastCPU(of tid: Int32, in pid: Int32) -> Int? {
        guard let bytes = try? FileSystem.readFile("/proc/\(pid)/task/\(tid)/stat"),
              let close = bytes.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        // After the command name in parentheses come fields 3, 4, …: field 39 is the 37th.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 36 else { return nil }
        return Int(String(decoding: fields[36], as: UTF8.self))
    }
}
