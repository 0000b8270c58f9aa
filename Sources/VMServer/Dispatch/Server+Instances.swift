import JSONCore
import VMProtocol
import ViewModelKit

/// `vm.types`, `vm.create`, `vm.destroy`, `vm.list`, and what happens when an instance goes.
extension Server {
    func types(_ call: Call) throws -> Outcome {
        let params = try VMTypesMethod.Params(call.params)
        guard let name = params.type else { return .encoded(allTypesResult) }
        return .result(VMTypesMethod.result(types: [try host.type(named: name).jsonValue]))
    }

    func create(_ call: Call) throws -> Outcome {
        try create(call, VMCreateMethod.Params(call.params))
    }

    /// `vm.create` with its params read.
    func create(_ call: Call, _ params: consuming VMCreateMethod.Params) throws -> Outcome {
        let session = call.session
        // Everything that can refuse the subscription is checked before anything is created (O3).
        var watched: [(name: String, index: Int, kind: OutputKind)] = []
        if let options = params.subscribe {
            let description = try host.type(named: params.type)
            watched = try Self.resolve(options.outputs, of: description, instance: params.id ?? "")
            guard session.openStreams < limits.maxSubscriptionsPerConnection else {
                throw WireError.limitReached("maxSubscriptionsPerConnection", value: limits.maxSubscriptionsPerConnection)
            }
        }
        if params.durable {
            guard let durability else {
                throw WireError.invalidParams(
                    path: "/durable", expected: "false", got: "true",
                    detail: "this daemon keeps no store of durable instances")
            }
            durability.createNextDurable()
        }
        let instance: ViewModelInstance
        do {
            instance = try host.create(type: params.type, id: params.id, args: params.args)
        } catch {
            if params.durable { durability?.creationFailed(params.id) }
            throw error
        }
        // A daemon-scoped instance nobody watches gets its record on first use (`record(of:)`),
        // like a child: most idle instances never need one.
        let records = params.record || recordsEveryInstance
        if params.scope == .connection || params.subscribe != nil || records {
            instance.attachment = InstanceRecord(
                instance: instance, scope: params.scope, owner: params.scope == .connection ? session.id : nil)
        }
        if records { startRecording(instance, args: params.args) }
        if params.scope == .connection { session.ownedInstances.append(instance.id) }

        guard let options = params.subscribe else {
            // Nobody watches the new instance: what its `init` emitted is dropped now.
            host.deliverHeldEvents()
            return .created(
                VMCreateMethod.Result(instance: instance.id, type: instance.typeName, scope: params.scope, durable: params.durable),
                after: nil)
        }
        // Opened before control returns to the loop: nothing the instance emits from now on
        // (an initial load hopping back through the scheduler) can be missed.
        let subscription: Subscription
        do {
            subscription = try openSubscription(on: session, record: record(of: instance.id), outputs: watched, patches: options.patches)
        } catch {
            host.deliverHeldEvents()
            throw error
        }
        let result = VMCreateMethod.Result(
            instance: instance.id, type: instance.typeName, scope: params.scope, subscription: subscription.id, durable: params.durable)
        // The reply, the replay of the states, then the events `init` emitted, with the
        // following seqs (PROTOCOL.md, vm.create).
        return .created(result) { [unowned self] in
            if options.replay { replay(subscription) }
            host.deliverHeldEvents()
        }
    }

    func destroy(_ call: Call) throws -> Outcome {
        try destroy(call, VMDestroyMethod.Params(call.params))
    }

    /// `vm.destroy` with its params read.
    func destroy(_ call: Call, _ params: VMDestroyMethod.Params) throws -> Outcome {
        // `vm.closed` of every subscriber is queued inside, before this reply (O4).
        try host.destroy(params.instance, reason: .destroyed)
        return .constant(Self.destroyedResult)
    }

    /// ``VMDestroyMethod/result`` encoded, the same for every call: written as it is into each
    /// reply rather than serialized (InstanceCallFrameTests checks that the two agree).
    static let destroyedResult: StaticString = #"{"destroyed":true}"#

    func list(_ call: Call) throws -> Outcome {
        try VMListMethod.decodeParams(call.params)
        let summaries = host.instances.map { instance in
            let record = instance.attachment as? InstanceRecord
            return VMListMethod.Summary(
                instance: instance.id, type: instance.typeName, scope: record?.scope ?? .daemon,
                subscribers: record?.subscriptions.count ?? 0, parent: instance.parent,
                durable: durability?.isDurable(instance.id) ?? false)
        }
        return .result(VMListMethod.result(summaries))
    }

    /// The record of live instance `id`, kept on the instance itself (the host's table is
    /// the only table of instances); made on first use for instances the server did not
    /// create itself (children, created by their parent).
    func record(of id: String) throws(ViewModelError) -> InstanceRecord {
        let instance = try host.instance(id)
        if let record = instance.attachment as? InstanceRecord { return record }
        let record = InstanceRecord(instance: instance, scope: .daemon, owner: nil)
        instance.attachment = record
        return record
    }

    /// The host destroyed an instance (any cause): each subscriber hears `vm.closed` with the
    /// reason, in subscription order; its channels stop observing.
    func instanceClosed(_ instance: ViewModelInstance, reason: CloseReason) {
        sendRoute.forget(instance)
        durability?.instanceClosed(instance.id, reason: reason)
        guard let record = instance.attachment as? InstanceRecord else { return }
        instance.attachment = nil
        record.recorder?.stop()
        for channel in record.channels { channel?.stop() }
        record.channels = []
        let subscriptions = record.subscriptions
        record.subscriptions = []
        for subscription in subscriptions {
            let session = subscription.session
            subscription.close()
            session.subscriptions[subscription.id] = nil
            session.lossOrder.removeAll { $0 === subscription }
            outbox.send(to: session) { buffer in
                VMClosedNotification.append(
                    instance: instance.id, subscription: subscription.id, reason: reason.rawValue, to: &buffer)
            }
        }
        if let owner = record.owner, let session = sessions[owner] ?? sessionBook.detached[owner] {
            session.ownedInstances.removeAll { $0 == instance.id }
        }
    }
}
