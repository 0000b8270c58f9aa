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
/// connection took with it are reported lost, and the newest value still comes. When vmd
/// restarted (the resume is refused and `daemon.info` answers another `bootId`), watch says
/// so and subscribes again to the same instance if it still exists (a durable one comes back
/// with its id, Protocol/PROTOCOL.md section 6): its current values follow, with a new
/// session. A `vm.closed` `"shutdown"` (SIGTERM) of a durable instance is not the end then:
/// watch waits for the restart (within the grace).
/// An instance that is gone ends watch with `closed (daemonRestarted)`; an expired
/// session ends it too. A daemon without sessions (or with `--session-grace-ms 0`) leaves
/// watch as it was: a drop ends it.
final class WatchSession {
    private var token: String?
    private var bootID: String?
    private var graceMs: Int64 = 0
    /// The subscription watch reads; a new one after vmd restarted.
    private(set) var subscription: String
    private let options: SubscribeOptions
    /// The last seq watch received on its subscription (0: none), kept by the watch loop
    /// (StreamCommands.swift). `session.resume` sends it as `received`, so vmd reports what a
    /// dropped socket took with it (`vm.overflow`) and sends the newest state values again.
    var lastSeq: Int64 = 0

    /// Opens the session on `run`'s connection; any failure leaves watch without one.
    init(_ run: Invocation, instance: String, subscription: String, options: SubscribeOptions) {
        self.subscription = subscription
        self.options = options
        open(run)
        guard token != nil, let listed = try? run.connection?.call(VMListMethod.name, nil, timeout: .seconds(5)) else { return }
        isDurable = listed["instances"]?.arrayValue?.contains { entry in
            entry["instance"]?.stringValue == instance && entry["durable"]?.boolValue == true
        } ?? false
    }

    /// Whether the watched instance is durable (`vm.list`), so it comes back after a restart.
    private var isDurable = false

    /// Opens a resumable session on `run`'s connection, learning the daemon's boot id.
    private func open(_ run: Invocation) {
        guard let connection = try? run.connect(),
              let info = try? connection.call("daemon.info", nil, timeout: .seconds(5)),
              let opened = try? connection.call(SessionOpenMethod.name, SessionOpenMethod.Params().jsonValue, timeout: .seconds(5)),
              let grace = opened["graceMs"]?.int64Value, grace > 0,
              let token = opened["token"]?.stringValue else { return }
        self.token = token
        self.bootID = info["bootId"]?.stringValue
        self.graceMs = grace
    }

    /// Whether a `vm.closed` `"shutdown"` is not the end: a resumable session is open and
    /// the instance is durable, so the restart brings it back.
    var followsRestarts: Bool { token != nil && isDurable }

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
                    try followAfterRestart(run, instance: instance, bootID: now)
                    return
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

    /// vmd restarted: subscribes again to `instance` on a new connection (its current values
    /// come as replays, seqs start again at 1) and opens a new session, or, when the instance
    /// did not come back, prints its end as a `vm.closed` would and stops.
    private func followAfterRestart(_ run: Invocation, instance: String, bootID now: String) throws(CommandFailure) {
        note("… vmd restarted (daemonRestarted, boot id \(now)); following \(instance)", run)
        run.connection?.close()
        run.connection = nil
        let connection = try run.connect()
        let result: JSONValue
        do throws(VMClientError) {
            result = try connection.call(VMSubscribeMethod.name, VMSubscribeMethod.Params(instance: instance, options: options).jsonValue, timeout: .seconds(5))
        } catch .remote(let remote) where remote.name == "unknownInstance" || remote.code == VMErrorCode.unknownInstance.number {
            if run.json {
                let closed: JSONValue = ["subscription": .string(subscription), "instance": .string(instance), "reason": "daemonRestarted"]
                run.console.line(closed.encodedString())
            } else {
                run.console.line(run.console.styled("\(instance) closed (daemonRestarted)", Style.yellow))
            }
            run.console.flush()
            throw CommandFailure(status: .daemonError, message: "vmd restarted and \(instance) is gone (it was not durable, or was destroyed)")
        } catch {
            throw CommandFailure.client(error, at: run.location)
        }
        guard let id = result["subscription"]?.stringValue else {
            throw CommandFailure(status: .daemonError, message: "\(VMSubscribeMethod.name) answered no subscription id: \(result)")
        }
        subscription = id
        lastSeq = 0
        bootID = now
        open(run)
    }

    /// A line about the connection, on standard error (it is not a value: `--json` output
    /// stays one vm.output per line).
    private func note(_ text: String, _ run: Invocation) {
        run.console.note(text)
    }
}
