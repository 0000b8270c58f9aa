import JSONCore
import VMProtocol

/// `daemon.info`, `daemon.shutdown`, `daemon.monitor`, `daemon.unmonitor`.
extension Server {
    func info(_ call: Call) throws(WireError) -> Outcome {
        try DaemonInfoMethod.decodeParams(call.params)
        let uptime = max(0, Double(scheduler.now.nanoseconds - identity.startedAt.nanoseconds) / 1_000_000_000)
        let result = DaemonInfoMethod.Result(
            version: identity.version, bootId: identity.bootId, pid: identity.pid, uptimeSeconds: uptime,
            instances: host.count, connections: sessions.count, limits: limits, socket: identity.socketPath,
            slowClient: identity.slowClient)
        return .result(result.jsonValue)
    }

    func shutdownRequest(_ call: Call) throws(WireError) -> Outcome {
        try DaemonShutdownMethod.decodeParams(call.params)
        try requireSameUser(call)
        log(.shutdownRequested(connection: call.session.id))
        // The reply is queued first; the daemon stops after the current callback.
        return .resultThen(DaemonShutdownMethod.result, after: requestShutdown)
    }

    func monitor(_ call: Call) throws(WireError) -> Outcome {
        try DaemonMonitorMethod.decodeParams(call.params)
        try requireSameUser(call)
        let session = call.session
        guard session.openStreams < limits.maxSubscriptionsPerConnection else {
            throw WireError.limitReached("maxSubscriptionsPerConnection", value: limits.maxSubscriptionsPerConnection)
        }
        nextMonitor += 1
        let monitor = Monitor(id: "mon-\(nextMonitor)", session: session)
        // Registered after the reply: the monitor reports from its response on (§13).
        return .resultThen(DaemonMonitorMethod.result(monitor: monitor.id)) { [outbox] in
            guard session.isOpen else { return }
            session.monitors[monitor.id] = monitor
            outbox.monitors.append(monitor)
        }
    }

    func unmonitor(_ call: Call) throws(WireError) -> Outcome {
        let params = try DaemonUnmonitorMethod.Params(call.params)
        try requireSameUser(call)
        let session = call.session
        guard let monitor = session.monitors.removeValue(forKey: params.monitor) else {
            throw WireError.unknownSubscription(params.monitor, monitor: true)
        }
        // Removed before the reply is written: nothing reaches it after that reply (O9).
        outbox.monitors.removeAll { $0 === monitor }
        return .result(DaemonUnmonitorMethod.result)
    }
}
