import VMProtocol
import ViewModelKit

/// What the server keeps beside a hosted instance: its scope and owner, its subscriptions and
/// the channels watching its outputs.
///
/// Kept as the instance's `attachment`, so the host's table is the only table of instances.
/// The two hold each other until the instance is destroyed; `Server.instanceClosed` then
/// drops the attachment.
final class InstanceRecord {
    let instance: ViewModelInstance
    let scope: InstanceScope
    /// The connection whose closing destroys it (`connection` scope only); moves with its
    /// session on `session.resume`.
    var owner: ConnectionID?
    /// Open subscriptions, in opening order (the order `vm.closed` goes out in).
    var subscriptions: [Subscription] = []
    /// Per output index (`vm.types` order): its channel, while anybody watches it.
    var channels: [OutputChannel?]
    /// Its flight recorder, when created with `record: true` (TapeRecorder.swift).
    var recorder: TapeRecorder?

    init(instance: ViewModelInstance, scope: InstanceScope, owner: ConnectionID?) {
        self.instance = instance
        self.scope = scope
        self.owner = owner
        self.channels = Array(repeating: nil, count: instance.type.outputs.count)
    }

    var id: String { instance.id }
}
