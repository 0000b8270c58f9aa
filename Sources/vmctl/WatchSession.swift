#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONCore
import Posix
import VMClient
import VMProtocol

/// How `vmctl watch` survives a dropped connection: it opens a resumable session
/// (`session.open`, Protocol/PROTOCOL.md) after subscribing; when the connection drops it
/// reconnects within the session's grace and resumes (`session.resume`, saying the last seq
/// it received), so the subscription goes on with continuing `seq`, values the dropped
/// connection took with it are reported lost, and the newest value still comes. A refused resume ends watch, saying whether
/// vmd restarted (another `daemon.info` `bootId`) or the session expired. A daemon without
/// sessions (or with `--session-grace-ms 0`) leaves watch as it was: a drop ends it.
final class WatchSession {
    private var token: String?
    private var bootID: String?
    private var graceMs: Int64 = 0
    private let subscription: String
    /// The last seq watch received on its subscription (0: none), kept by the watch loop
    /// (StreamCommands.swift). `session.resume` sends it as `received`, so vmd reports what a
    /// dropped socket took with it (`vm.overflow`) and sends the newest state values again.
    var lastSeq: Int64 = 0

    /// Opens the session on `run`'s connection; any failure leaves watch without one.
    init(_ run: Invocation, subscription: String) {
        self.subscription = subscription
        guard let connection = try? run.connect(),
              let info = try? connection.call("daemon.info", nil, timeout: .seconds(5)),
              let opened = try? connection.call(SessionOpenMethod.name, SessionOpenMethod.Params().jsonValue, timeout: .seconds(5)),
              let grace = opened["graceMs"]?.int64Value, grace > 0,
              let token = opened["token"]?.stringValue else { return }
        self.token = token
        self.bootID = info["bootId"]?.stringValue
        self.graceMs = grace
    }

    /// Ends resumability when watch stops on its own (count, timeout, closed instance), so
    /// the daemon does not keep the subscription for the grace.
    func close(_ run: Invocation) {
        guard token != nil, let connection = run.connection else { return }
        _ = try? connection.call(SessionCloseMethod.name, .object([:]), timeout: .seconds(2))
        token = nil
    }

    /// What watch calls when its connection drops: reconnects and resumes, or throws why not.
    func resumer(_ run: Invocation, instance: String) -> (String) throws(CommandFailure) -> Void {
        { reason throws(CommandFailure) in try self.resume(run, instance: instance, after: reason) }
    }

    private func resume(_ run: Invocation, instance: String, after reason: String) throws(CommandFailure) {
        guard let token else {
            throw CommandFailure(status: .unreachable, message: "the connection to vmd ended: \(reason)",
                                 hints: ["Is vmd still running? 'vmctl daemon status' tells."])
        }
        run.connection?.close()
        run.connection = nil
        note("… connection lost (\(reason)); resuming", run)
        let deadline = MonotonicClock.nanoseconds() &+ UInt64(graceMs) &* 1_000_000
        var delayMs: UInt32 = 50
        while true {
            let connection: VMBlockingConnection
            do throws(VMClientError) {
                connection = try VMBlockingConnection.connect(to: run.location, timeout: .seconds(1))
                // session.resume must be the first request of the connection (PROTOCOL.md, section 18).
                let resumed = try connection.call(SessionResumeMethod.name, SessionResumeMethod.Params(token: token, received: [subscription: lastSeq]).jsonValue, timeout: .seconds(5))
                run.connection = connection
                note("… resumed session \(resumed["session"]?.stringValue ?? "?")", run)
                return
            } catch .remote(let remote) where remote.code == -31016 || remote.name == "unknownSession" {
                self.token = nil
                // A restarted daemon cannot know the token: its boot id tells the two apart.
                let now = try? VMBlockingConnection.connect(to: run.location, timeout: .seconds(1))
                    .call("daemon.info", nil, timeout: .seconds(5))["bootId"]?.stringValue
                if let now, let bootID, now != bootID {
                    throw CommandFailure(status: .daemonError, message: "vmd restarted (daemonRestarted): the watch of \(instance) ended")
                }
                throw CommandFailure(status: .daemonError, message: "the session expired (unknownSession): the watch of \(instance) ended")
            } catch .remote(let remote) {
                throw RemoteErrorWording.failure(remote)
            } catch {
                // Not reachable yet (restarting, or the listener is busy): try again in a while.
                if MonotonicClock.nanoseconds() >= deadline { throw CommandFailure.client(error, at: run.location) }
                usleep(delayMs * 1000)
                delayMs = min(delayMs * 2, 1000)
            }
        }
    }

    /// A line about the connection, on standard error (it is not a value: `--json` output
    /// stays one vm.output per line).
    private func note(_ text: String, _ run: Invocation) {
        run.console.note(text)
    }
}
