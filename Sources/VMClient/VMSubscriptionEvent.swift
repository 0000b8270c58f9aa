import JSONCore

/// One value of a watched output: a `vm.output` notification.
///
/// On a subscription with `SubscribeOptions.patches` a notification may carry an RFC 6902
/// `patch` instead of the value; the client applies it to the value it last delivered for
/// that output, so ``value`` is always the whole new value, and ``patch`` is the patch as it
/// came (`nil` when the daemon sent the value). After a gap in `seq` or a `vm.overflow`, a
/// patch has no value to apply to and is not delivered on the subscription until a whole
/// value of its output arrives (Protocol/PROTOCOL.md, section 18).
public struct VMOutputEvent: Sendable, Hashable {
    /// The subscription, instance and output names in one shared object: every event of one
    /// subscription's output holds the same one (OutputNameCache.swift), so copying an event
    /// on its way from the socket to the consumer counts one reference for its names.
    private var names: OutputNames

    /// The subscription that delivered it.
    public var subscription: String {
        get { names.subscription }
        set { names = OutputNames(subscription: newValue, instance: names.instance, output: names.output) }
    }
    /// The instance whose output it is.
    public var instance: String {
        get { names.instance }
        set { names = OutputNames(subscription: names.subscription, instance: newValue, output: names.output) }
    }
    /// The output's name.
    public var output: String {
        get { names.output }
        set { names = OutputNames(subscription: names.subscription, instance: names.instance, output: newValue) }
    }
    /// The whole value (materialized from the patch when one came).
    public var value: JSONValue
    /// The patch the daemon sent for this value, if it sent one.
    public var patch: JSONPatch?
    /// 1, 2, 3, ... per subscription; a gap only after a ``VMSubscriptionEvent/overflow(_:)``.
    public var seq: Int64
    /// True for the current values sent right after subscribing.
    public var isReplay: Bool

    /// The names object this event shares with the others of its output (for tests).
    var sharedNames: OutputNames { names }

    /// A value as OutputFrameReader.swift read it (never a patch).
    init(names: OutputNames, value: JSONValue, seq: Int64, isReplay: Bool) {
        self.names = names
        self.value = value
        self.patch = nil
        self.seq = seq
        self.isReplay = isReplay
    }

    /// `vm.output`'s params for this value as the daemon sent it (a value, not a patch).
    var params: JSONValue {
        var object: JSONObject = [
            "subscription": .string(subscription), "instance": .string(instance), "output": .string(output),
            "seq": .integer(seq), "value": value,
        ]
        if isReplay { object["replay"] = true }
        return .object(object)
    }

    /// Reads `vm.output`'s params.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        names = OutputNames(subscription: try members.decode("subscription"), instance: try members.decode("instance"),
                            output: try members.decode("output"))
        if let patchJSON = members.object["patch"], members.object["value"] == nil {
            do {
                patch = try JSONPatch(json: patchJSON)
            } catch {
                throw JSONDecodingError(path: JSONPath.root.appending(key: "patch"), expected: "an RFC 6902 patch", got: patchJSON.typeName, detail: error.description)
            }
            // Filled in by the client from the value it delivered last (ClientCore+Routing.swift).
            value = .null
        } else {
            value = try members.decode("value")
        }
        seq = try members.decode("seq")
        isReplay = try members.decode("replay", default: false)
    }
}

/// What a subscription's sequence yields.
public enum VMSubscriptionEvent: Sendable, Hashable {
    /// A value of a watched output.
    case output(VMOutputEvent)
    /// The connection read too slowly and these seqs were never written (inclusive range).
    /// The newest value of each state output follows.
    case overflow(ClosedRange<Int64>)
    /// The instance is gone; this is the last event. `reason` is `"destroyed"`,
    /// `"parentDestroyed"`, `"ownerDisconnected"`, `"shutdown"`, or a later reason.
    case closed(reason: String)
}

/// One `daemon.message` notification: a message some connection received or was sent.
public struct VMMonitorMessage: Sendable, Hashable {
    public var monitor: String
    /// 1, 2, 3, ... per monitor; a gap means messages were dropped for a slow monitor.
    public var seq: Int64
    /// `"in"` (received by the daemon) or `"out"` (sent by it).
    public var direction: String
    /// The connection's number, in accept order.
    public var connection: Int64
    /// The message or batch (a string holding the text of a frame that was not JSON).
    public var message: JSONValue

    /// Reads `daemon.message`'s params.
    public init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        monitor = try members.decode("monitor")
        seq = try members.decode("seq", default: 0)
        direction = try members.decode("direction")
        connection = try members.decode("connection")
        message = try members.decode("message")
    }
}
