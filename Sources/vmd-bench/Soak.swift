// `vmd-bench soak [--seconds N] [--short] [--rss-margin-mb M]`: a bounded soak and load run
// against a real vmd (the one beside vmd-bench) on a private socket in a fresh temporary
// directory, loopback only (one of the reliability checks in Performance.md).
//
// Load, bounded in count and time:
// - idle connections (1,000; 200 with --short), opened first: RSS per idle connection;
// - connection-scoped Counters owned by one connection (10,000; 2,000 with --short): RSS per
//   idle instance; they go away when their owner closes, at the end;
// - fan-out: one Counter, 20 subscriber connections, steady `vm.send` requests from a writer
//   whose round trips give p50/p99; 4 of the subscribers never read (slow readers: the daemon
//   must coalesce or drop them, never grow without bound);
// - async actions: a Login (latencyMs 5) whose `submit` runs again and again, timed too;
// - churn: clients that connect, create a connection-scoped TextField, subscribe, pipeline
//   sends and are closed without reading their replies (killed at random moments); now and
//   then a fan-out subscriber is killed and replaced.
//
// Sampled every second: the daemon's RSS and fds (/proc/PID), instances (daemon.info) and
// subscriptions (the sum of vm.list's `subscribers`). At the end every client is closed and the
// run waits (up to 20 s) for instances, subscriptions and fds to return to the baseline taken
// before the load; RSS must end within --rss-margin-mb (default 64) of the baseline. Exit 1 if
// not, or if the daemon died or stopped answering.

import JSONCore
import Posix

/// The settings of one soak run, from the command line.
struct SoakSettings {
    var seconds = 600
    var idleConnections = 1_000
    var instances = 10_000
    var subscribers = 20
    var slowReaders = 4
    var rssMarginBytes = 64 << 20

    /// Parses `soak`'s arguments; `nil` (after printing why) on a usage error.
    static func parse(_ arguments: [String]) -> SoakSettings? {
        var settings = SoakSettings()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            func value() -> Int? {
                index += 1
                return index < arguments.count ? Int(arguments[index]) : nil
            }
            switch argument {
            case "--short":
                settings.seconds = 30
                settings.idleConnections = 200
                settings.instances = 2_000
            case "--seconds":
                guard let seconds = value(), seconds > 0, seconds <= 86_400 else {
                    print("soak: --seconds wants a number of seconds from 1 to 86400")
                    return nil
                }
                settings.seconds = seconds
            case "--rss-margin-mb":
                guard let megabytes = value(), megabytes >= 0 else {
                    print("soak: --rss-margin-mb wants a number of MiB")
                    return nil
                }
                settings.rssMarginBytes = megabytes << 20
            default:
                print("soak: unknown argument \(argument); usage: vmd-bench soak [--seconds N] [--short] [--rss-margin-mb M]")
                return nil
            }
            index += 1
        }
        return settings
    }
}

/// Runs the soak; returns the process exit status (0 everything back to baseline, 1 not).
func runSoak(_ arguments: [String]) -> Int32 {
    guard let settings = SoakSettings.parse(arguments) else { return 2 }
    do {
        let soak = try SoakRun(settings: settings)
        var passed = false
        defer { soak.stopDaemon(keepDirectory: !passed) }
        passed = try soak.run()
        return passed ? 0 : 1
    } catch {
        print("soak FAILED: \(error)")
        return 1
    }
}
