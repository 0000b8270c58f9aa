import JSONCore
import ViewModelKit

/// Where a server keeps its durable instances (`vm.create {durable: true}`) between runs: the
/// daemon's is a crash-safe file (VMTransport's `DurableInstanceStore`). The server calls it on
/// its thread; what it is told in one loop turn must reach stable storage before that turn's
/// replies and notifications are written (PROTOCOL.md, "Durable instances").
package protocol InstanceStore: AnyObject {
    /// The durable instances the last run left, in the order they were created.
    func restorable() -> [StoredInstance]
    /// A durable instance was created (or restored with different saved values): `instance`
    /// replaces whatever was stored under its id.
    func created(_ instance: StoredInstance)
    /// A durable instance saved `entry` (`{"version", "value"}`) under `key`.
    func saved(_ instance: String, key: String, entry: JSONValue)
    /// Saved values changed; the store calls ``changeCollector`` (which calls
    /// ``saved(_:key:entry:)`` for each) before it next writes. Many changes between two
    /// writes cost one call each of these, not one record each.
    func changesWaiting()
    /// Set by the server: reports the changes waiting through ``saved(_:key:entry:)``.
    var changeCollector: (() -> Void)? { get set }
    /// A durable instance was destroyed (not by the daemon's end): it is not restored again.
    func destroyed(_ instance: String)
    /// Something stored could not be used (`what`: a saved entry, or a whole instance's
    /// record): the store keeps it aside and logs `reason`.
    func setAside(_ instance: String, what: JSONValue, reason: String)
}

/// A durable instance as stored: what recreates it, and its saved values.
package struct StoredInstance: Sendable, Equatable {
    package var id: String
    package var type: String
    /// Its creation arguments, as checked when it was first created.
    package var args: JSONValue
    package var parent: String?
    /// Its saved values, by key, each `{"version", "value"}`.
    package var saved: JSONObject

    package init(id: String, type: String, args: JSONValue, parent: String?, saved: JSONObject) {
        self.id = id
        self.type = type
        self.args = args
        self.parent = parent
        self.saved = saved
    }

    /// `{"id", "type", "args", "parent"?, "saved": {key: {"version", "value"}}}`: the form a
    /// store writes, and what is set aside when the instance cannot be restored.
    package var jsonValue: JSONValue {
        var object: JSONObject = ["id": .string(id), "type": .string(type), "args": args]
        if let parent { object["parent"] = .string(parent) }
        object["saved"] = .object(saved)
        return .object(object)
    }

    /// Reads ``jsonValue``'s form.
    package init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        id = try members.decode("id")
        type = try members.decode("type")
        args = try members.decode("args")
        parent = try members.decode("parent")
        saved = try members.decode("saved", default: JSONObject())
    }
}

extension SavedEntry {
    /// `{"version", "value"}`: how a store keeps it.
    var jsonValue: JSONValue {
        ["version": .integer(Int64(version)), "value": value]
    }

    /// Reads `{"version", "value"}`.
    init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        self.init(version: try members.decode("version"), value: try members.decode("value"))
    }

    /// Saved entries in a store's form, keys sorted (the same state always writes the same bytes).
    static func jsonObject(_ entries: [String: SavedEntry]) -> JSONObject {
        var object = JSONObject()
        for key in entries.keys.sorted() {
            if let entry = entries[key] { object[key] = entry.jsonValue }
        }
        return object
    }
}
