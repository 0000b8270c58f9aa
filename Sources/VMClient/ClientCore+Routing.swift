import JSONCore
import VMProtocol

/// Routing what arrives: replies to their callers, values to their subscriptions, monitor
/// messages to their monitors, anything else to ``VMClient/events``. Runs on the loop thread.
extension ClientCore {
    /// A delivery decided under the lock and performed after it.
    enum Delivery {
        case reply(CheckedContinuation<JSONValue, any Error>, Result<JSONValue, any Error>)
        case subscription(SubscriptionSink, VMSubscriptionEvent, last: Bool)
        case monitor(MonitorSink, VMMonitorMessage)
        case progress(ProgressSink, VMProgressNotification.Params)
        case failOpening(Opening, any Error)
        case event(VMClientEvent)
        /// A subscription was opened: watch for its consumer giving up.
        case opened(Opening, id: String)
        /// Bytes were queued on the loop's behalf (ClientCore+Session.swift): write them.
        case flush
        /// Events were put in this channel under the lock and its consumer waits: wake it.
        case wake(SubscriptionChannel)
    }

    /// Routes the frames `reader` has completed, each as it is decoded, under one hold of the
    /// lock (no array of the chunk's messages between reading and routing); returns why the
    /// framing failed, if it did.
    func route(framesOf reader: SocketReader) -> String? {
        var framingError: String?
        let deliveries = state.withLock { state in
            var deliveries: [Delivery] = []
            framingError = reader.decodeFrames(
                output: { Self.decideOutput($0, route: &$1, &state, into: &deliveries) },
                other: { Self.decide($0, &state, into: &deliveries) })
            state.pendingOutputs.flush(into: &deliveries)
            return deliveries
        }
        perform(deliveries)
        return framingError
    }

    /// Performs what was decided under the lock, in order. A subscription's outputs are
    /// already in its channel (decideOutput and the read's flush); its waiting consumer is woken once, after the
    /// batch or before anything else is delivered (a reply's caller finds the values it
    /// caused, O4).
    func perform(_ deliveries: [Delivery]) {
        var waking: [SubscriptionChannel] = []
        func wakeConsumers() {
            for channel in waking { channel.wake() }
            waking.removeAll(keepingCapacity: true)
        }
        for delivery in deliveries {
            switch delivery {
            case .wake(let channel):
                waking.append(channel)
                continue
            case .subscription(let channel, let event, last: false):
                if channel.append(event) { waking.append(channel) }
                continue
            default:
                break
            }
            wakeConsumers()
            switch delivery {
            case .reply(let continuation, let result): continuation.resume(with: result)
            case .subscription(let sink, let event, let last):
                sink.yield(event)
                if last { sink.finish() }
            case .monitor(let sink, let message): sink.yield(message)
            case .progress(let sink, let progress): sink.yield(progress)
            case .failOpening(let opening, let error): Self.finish(opening, throwing: error)
            case .event(let event): events.yield(event)
            case .opened(let opening, let id): abandonOnCancel(opening, id: id)
            case .flush: requestFlush()
            case .wake: break  // handled above
            }
        }
        wakeConsumers()
    }

    private static func decide(_ message: ClientWire.Incoming, _ state: inout State, into deliveries: inout [Delivery]) {
        switch message {
        case .response(let id, let outcome):
            // No progress after the reply (PROTOCOL.md O12): its receiver is done.
            state.progress[id] = nil
            guard let waiter = state.pending.removeValue(forKey: id) else { return }
            switch waiter {
            case .reconnectProbe, .sessionOpen, .sessionResume, .resumeSentinel, .resubscribe:
                decideSession(waiter, outcome, &state, into: &deliveries)
            case .caller(let continuation, let opening):
                switch outcome {
                case .success(let result):
                    if let opening, let failure = register(opening, from: result, &state) {
                        deliveries.append(.failOpening(opening, failure))
                        deliveries.append(.reply(continuation, .failure(failure)))
                    } else {
                        if let opening, let id = (result["subscription"] ?? result["monitor"])?.stringValue {
                            deliveries.append(.opened(opening, id: id))
                        }
                        deliveries.append(.reply(continuation, .success(result)))
                    }
                case .failure(let error):
                    if let opening { deliveries.append(.failOpening(opening, VMClientError.remote(error))) }
                    deliveries.append(.reply(continuation, .failure(VMClientError.remote(error))))
                }
            }
        case .unmatchedResponse(let outcome):
            if case .failure(let error) = outcome { deliveries.append(.event(.unaddressedError(error))) }
        case .notification(let method, let params):
            decideNotification(method, params, &state, into: &deliveries)
        case .invalid(let text):
            deliveries.append(.event(.notification(method: "vmclient.invalidMessage", params: ["message": .string(text)])))
        }
    }

    /// When the task iterating a subscription or monitor is cancelled (or drops the sequence),
    /// forgets it and tells the daemon with a fire-and-forget `vm.unsubscribe` (or
    /// `daemon.unmonitor`), so values stop coming for nobody.
    private func abandonOnCancel(_ opening: Opening, id: String) {
        switch opening {
        case .subscription(let sink, _):
            sink.onCancel = { [weak self] in
                guard let self else { return }
                let known = self.state.withLock { state in
                    Self.forgetFollowing(id, &state)
                    state.lastValues[id] = nil
                    state.patchSeqs[id] = nil
                    return state.subscriptions.removeValue(forKey: id) != nil
                }
                if known { try? self.notify(VMUnsubscribeMethod.name, ["subscription": .string(id)]) }
            }
        case .monitor(let sink):
            sink.onTermination = { [weak self] termination in
                guard case .cancelled = termination, let self else { return }
                let known = self.state.withLock { $0.monitors.removeValue(forKey: id) != nil }
                if known { try? self.notify(DaemonUnmonitorMethod.name, ["monitor": .string(id)]) }
            }
        }
    }

    /// Registers the stream a successful reply opens, under the id the reply names.
    /// `vm.create` without `subscribe` answers no `subscription`: nothing opens, no error.
    private static func register(_ opening: Opening, from result: JSONValue, _ state: inout State) -> VMClientError? {
        switch opening {
        case .subscription(let sink, let target):
            guard let id = result["subscription"]?.stringValue else {
                sink.finish()
                return nil
            }
            state.subscriptions[id] = sink
            if target.options.patches { state.lastValues[id] = [:] }
            if let instance = target.instance ?? result["instance"]?.stringValue {
                state.followed[id] = FollowedSubscription(
                    original: id, instance: instance, options: target.options, isDurable: result["durable"]?.boolValue == true)
            }
        case .monitor(let sink):
            guard let id = result["monitor"]?.stringValue else {
                return .protocolViolation("daemon.monitor result has no \"monitor\" id")
            }
            state.monitors[id] = sink
        }
        return nil
    }

    /// A `vm.output` read by OutputFrameReader.swift: as the general path would route it.
    /// `route` is where its subscription's frames went last: its channel is looked up by id
    /// only when the subscriptions changed since.
    private static func decideOutput(
        _ event: consuming VMOutputEvent, route: inout OutputRoute, _ state: inout State, into deliveries: inout [Delivery]
    ) {
        if route.version != state.subscriptionsVersion {
            route = OutputRoute(sink: state.subscriptions[event.subscription], version: state.subscriptionsVersion)
        }
        guard let sink = route.sink else {
            deliveries.append(.event(.notification(method: VMOutputNotification.name, params: event.params)))
            return
        }
        decideOutput(event, sink, &state, into: &deliveries, unclaimedParams: nil)
    }

    /// Routes one `vm.output` to its subscription's channel: after a resume only the seqs not
    /// seen before, and with patches applied to the value delivered last. A patch that cannot
    /// be applied goes to the events stream with `unclaimedParams` (the params as received),
    /// or with the event's own params when it was read without its envelope (nil).
    private static func decideOutput(
        _ output: consuming VMOutputEvent, _ sink: SubscriptionSink, _ state: inout State, into deliveries: inout [Delivery],
        unclaimedParams: JSONValue?
    ) {
        // Without a resumable session (the usual case) no seq is remembered: the id is not
        // even read.
        if state.session.isResumable {
            guard state.session.accept(subscription: output.subscription, seq: output.seq) else { return }  // seen before a resume
        }
        // No patch to apply and no subscription keeping values for patches (the usual case):
        // straight into the channel, without looking the id up in `lastValues` twice.
        if output.patch == nil, state.lastValues.isEmpty {
            state.pendingOutputs.append(.output(output), to: sink)
            return
        }
        let id = output.subscription
        var event = copy output
        if state.lastValues[id] != nil {
            // After a gap in seq, patches wait for a whole value (PROTOCOL.md §18).
            if let last = state.patchSeqs[id], event.seq != last + 1 { state.lastValues[id] = [:] }
            state.patchSeqs[id] = event.seq
        }
        if let patch = event.patch {
            // A patch applies to the value this subscription delivered last for the output.
            guard let base = state.lastValues[id]?[event.output], let value = try? patch.applied(to: base) else {
                // Not applied: later patches wait for a whole value of this output.
                state.lastValues[id]?[event.output] = nil
                deliveries.append(.event(.notification(method: VMOutputNotification.name, params: unclaimedParams ?? output.params)))
                return
            }
            event.value = value
        }
        if state.lastValues[id] != nil { state.lastValues[id]?[event.output] = event.value }
        // Into the channel with the read's other values, still under the client's lock (the
        // channel's lock is taken inside the client's, never the other way round); only a
        // waiting consumer needs a delivery, the wake, once per batch.
        state.pendingOutputs.append(.output(event), to: sink)
    }

    private static func decideNotification(
        _ method: String, _ params: JSONValue, _ state: inout State, into deliveries: inout [Delivery]
    ) {
        let unclaimed = Delivery.event(.notification(method: method, params: params))
        switch method {
        case VMProgressNotification.name:
            guard let id = params["request"]?.int64Value, let sink = state.progress[id],
                  let progress = try? VMProgressNotification.Params(json: params) else {
                deliveries.append(unclaimed)
                return
            }
            deliveries.append(.progress(sink, progress))
        case VMOutputNotification.name, VMOverflowNotification.name, VMClosedNotification.name:
            guard let id = params["subscription"]?.stringValue, let sink = state.subscriptions[id] else {
                deliveries.append(unclaimed)
                return
            }
            if method == VMClosedNotification.name {
                let reason = params["reason"]?.stringValue ?? "unknown"
                if holdsAtShutdown(id, reason: reason, &state) { return }
                forgetFollowing(id, &state)
                state.subscriptions[id] = nil
                state.lastValues[id] = nil
                state.patchSeqs[id] = nil
                state.session.lastSeq[id] = nil
                deliveries.append(.subscription(sink, .closed(reason: reason), last: true))
            } else if method == VMOverflowNotification.name {
                guard let from = params["lost"]?["from"]?.int64Value, let to = params["lost"]?["to"]?.int64Value,
                      from <= to else {
                    deliveries.append(unclaimed)
                    return
                }
                state.session.observeOverflow(subscription: id, range: from...to)
                // Values after the last one seen were lost: no value held is a base a later
                // patch may build on.
                if state.lastValues[id] != nil, to > state.patchSeqs[id] ?? 0 { state.lastValues[id] = [:] }
                deliveries.append(.subscription(sink, .overflow(from...to), last: false))
            } else if let event = try? VMOutputEvent(json: params) {
                decideOutput(event, sink, &state, into: &deliveries, unclaimedParams: params)
            } else {
                deliveries.append(unclaimed)
            }
        case DaemonMessageNotification.name:
            guard let id = params["monitor"]?.stringValue, let sink = state.monitors[id],
                  let message = try? VMMonitorMessage(json: params) else {
                deliveries.append(unclaimed)
                return
            }
            deliveries.append(.monitor(sink, message))
        default:
            deliveries.append(unclaimed)
        }
    }
}
