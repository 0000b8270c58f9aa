import JSONCore
import VMProtocol
import ViewModelKit

/// `vm.subscribe`, `vm.unsubscribe`, and the plumbing `vm.create`'s `subscribe` shares.
extension Server {
    func subscribe(_ call: Call) throws -> Outcome {
        let params = try VMSubscribeMethod.Params(call.params)
        let record = try record(of: params.instance)
        let watched = try Self.resolve(params.options.outputs, of: record.instance.type, instance: record.id)
        guard call.session.openStreams < limits.maxSubscriptionsPerConnection else {
            throw WireError.limitReached("maxSubscriptionsPerConnection", value: limits.maxSubscriptionsPerConnection)
        }
        let subscription = try openSubscription(on: call.session, record: record, outputs: watched, patches: params.options.patches)
        // The reply first (O1), then the replay at once, before any newer value (O2).
        return .resultThen(VMSubscribeMethod.result(subscription: subscription.id)) { [unowned self] in
            if params.options.replay { replay(subscription) }
        }
    }

    func unsubscribe(_ call: Call) throws(WireError) -> Outcome {
        let params = try VMUnsubscribeMethod.Params(call.params)
        guard let subscription = call.session.subscriptions.removeValue(forKey: params.subscription) else {
            throw WireError.unknownSubscription(params.subscription)
        }
        // Detached before the reply is written: nothing of it follows that reply (O9).
        detach(subscription)
        call.session.lossOrder.removeAll { $0 === subscription }
        return .result(VMUnsubscribeMethod.result)
    }

    /// The outputs `names` asks for (all when `nil`), in `vm.types` order, duplicates once.
    static func resolve(
        _ names: [String]?, of type: ViewModelTypeDescription, instance: String
    ) throws(ViewModelError) -> [(name: String, index: Int, kind: OutputKind)] {
        if let names {
            for name in names where !type.outputs.contains(where: { $0.name == name }) {
                throw ViewModelError.unknownOutput(type: type.name, instance: instance, output: name, known: type.outputNames())
            }
        }
        var watched: [(name: String, index: Int, kind: OutputKind)] = []
        for (index, output) in type.outputs.enumerated() where names?.contains(output.name) ?? true {
            watched.append((output.name, index, output.kind))
        }
        return watched
    }

    /// Opens a subscription on `record` for `outputs`: registered with the connection, the
    /// instance and each output's channel (which starts observing on its first tap).
    func openSubscription(
        on session: Session, record: InstanceRecord, outputs: [(name: String, index: Int, kind: OutputKind)], patches: Bool = false
    ) throws(ViewModelError) -> Subscription {
        nextSubscription += 1
        let subscription = Subscription(
            id: "sub-\(nextSubscription)", session: session, record: record, outputs: outputs, outbox: outbox, patches: patches)
        for (slot, output) in outputs.enumerated() {
            let channel: OutputChannel
            if let existing = record.channels[output.index] {
                channel = existing
            } else {
                channel = OutputChannel(output: output.name, kind: output.kind)
                record.channels[output.index] = channel
            }
            do throws(ViewModelError) {
                try channel.add(OutputChannel.Tap(subscription: subscription, slot: slot), instance: record.instance)
            } catch {
                detach(subscription)
                throw error
            }
        }
        session.subscriptions[subscription.id] = subscription
        record.subscriptions.append(subscription)
        return subscription
    }

    /// Ends `subscription` silently: out of its channels (each stops observing when unused)
    /// and its instance's list. The caller removes it from its connection.
    func detach(_ subscription: Subscription) {
        subscription.close()
        let record = subscription.record
        for slot in subscription.slots {
            guard record.channels.indices.contains(slot.outputIndex), let channel = record.channels[slot.outputIndex] else { continue }
            if channel.remove(subscription) { record.channels[slot.outputIndex] = nil }
        }
        record.subscriptions.removeAll { $0 === subscription }
    }

    /// The current value of every watched state output, marked `replay`, seq 1, 2, …
    func replay(_ subscription: Subscription) {
        let instance = subscription.record.instance
        var encoded: [UInt8] = []
        for (slot, watched) in subscription.slots.enumerated() where watched.kind == .state {
            guard subscription.isOpen else { continue }
            encoded.removeAll(keepingCapacity: true)
            // A patch subscription's next patch applies on top of this replayed value, which its
            // channel keeps as a tree; any other gets the value's text, written without one
            // when its type writes itself.
            var generation: UInt64 = 0
            if subscription.patches, let channel = subscription.record.channels[watched.outputIndex] {
                guard let value = try? instance.currentValue(output: watched.output) else { continue }
                JSONSerializer.append(value, to: &encoded)
                generation = channel.noteReplayed(value)
            } else {
                do { try instance.appendCurrentValue(output: watched.output, to: &encoded) } catch { continue }
            }
            subscription.deliver(slot: slot, encodedValue: encoded, replay: true, generation: generation)
        }
    }
}
