import JSONCore
import ViewModelKit

/// The server's durable instances: which live instances are durable, the saved state each
/// gets, and what the store is told (creations, saved changes, destructions). Used on the
/// server's thread only.
///
/// An instance is durable when `vm.create` asked for it (``createNextDurable()``), or when its
/// parent is durable and opened it by type name (`context.createChild(type:args:)`: a child
/// clients address by its id, restored with its parent). A child its parent drives through a
/// typed handle is not: the parent's `init` makes it again from the parent's saved values.
final class Durability {
    let store: any InstanceStore
    /// The host whose new instances this decides about. It is told to ask (its
    /// `savedStates`) only while something can be durable: a daemon with no durable instance
    /// pays nothing per `vm.create` (`.ci/instructions`).
    private unowned let host: ViewModelHost
    /// What the host asks about new instances, made on first need. Its closures hold this
    /// strongly (an `unowned` capture cost a slow-path retain per create), so ``close()``
    /// drops it: the host holds it only while something can be durable, and this holds it
    /// until the server shuts down.
    private var source: SavedStateSource?
    /// The live durable instances. Read through a copy and edited moved out
    /// (``editDurableIDs(_:)``), so every access is a plain load or swap that the optimizer
    /// checks statically: `vm.destroy` reads it once per instance.
    private var durableIDs: Set<String> = []
    /// Set by `vm.create {durable: true}` just before it creates: the next new instance is
    /// durable (its children then are, through their parent).
    private var nextIsDurable = false
    /// Stored instances being restored, by id, until their view model's `init` returned.
    private var restoring: [String: StoredInstance] = [:]
    /// The saved state of each live durable instance.
    private var states: [String: SavedState] = [:]
    /// Instances whose saved values changed since the store last collected, in order.
    private var changed: [(id: String, state: SavedState)] = []

    init(store: any InstanceStore, host: ViewModelHost) {
        self.store = store
        self.host = host
        store.changeCollector = { [unowned self] in collectChanges() }
    }

    /// Hands the store every change since the last collection.
    private func collectChanges() {
        let batch = changed
        changed = []
        for (id, state) in batch where states[id] === state {
            for (key, entry) in state.takeChanges() { store.saved(id, key: key, entry: entry.jsonValue) }
        }
    }

    /// Asks the host to consult this for new instances while anything can be durable, and
    /// not otherwise.
    private func updateHostHook() {
        let needed = nextIsDurable || !restoring.isEmpty || !durableIDs.isEmpty
        if needed != (host.savedStates != nil) { host.savedStates = needed ? madeSource() : nil }
    }

    /// ``source``, made (and kept) on first use.
    private func madeSource() -> SavedStateSource {
        if let source { return source }
        let made = SavedStateSource(
            stateForNewInstance: { instance, _, drivenByParent in
                drivenByParent ? nil : self.stateForNewInstance(instance)
            },
            instanceCreated: { instance, args, state in self.instanceCreated(instance, args: args, state: state) })
        source = made
        return made
    }

    /// The server shut down: the host asks nothing more, and the closures that hold this go.
    func close() {
        host.savedStates = nil
        source = nil
    }

    /// Makes the next instance created durable.
    func createNextDurable() {
        nextIsDurable = true
        updateHostHook()
    }

    /// Undoes ``createNextDurable()`` when the creation failed before the host got to it.
    func creationFailed(_ id: String?) {
        nextIsDurable = false
        if let id, !restoring.keys.contains(id) { editDurableIDs { _ = $0.remove(id) } }
        updateHostHook()
    }

    /// Runs `edit` on ``durableIDs`` moved into a local (nothing `edit` calls reads the set).
    private func editDurableIDs<Result>(_ edit: (inout Set<String>) -> Result) -> Result {
        var ids: Set<String> = []
        swap(&ids, &durableIDs)
        defer { swap(&ids, &durableIDs) }
        return edit(&ids)
    }

    /// Whether live instance `id` is durable.
    func isDurable(_ id: String) -> Bool {
        let ids = durableIDs
        return ids.contains(id)
    }

    private func stateForNewInstance(_ instance: ViewModelInstance) -> SavedState? {
        // A plain `vm.create` beside durable instances: decided without hashing the id.
        if !nextIsDurable, restoring.isEmpty, instance.parent == nil { return nil }
        let id = instance.id
        let restored = restoring[id].flatMap { $0.type == instance.typeName ? $0 : nil }
        let parentIsDurable = instance.parent.map { isDurable($0) } ?? false
        guard nextIsDurable || restored != nil || parentIsDurable else { return nil }
        nextIsDurable = false
        editDurableIDs { _ = $0.insert(id) }
        var entries: [String: SavedEntry] = [:]
        for (key, value) in restored?.saved ?? JSONObject() {
            do throws(JSONDecodingError) {
                entries[key] = try SavedEntry(json: value)
            } catch {
                store.setAside(id, what: ["key": .string(key), "entry": value], reason: "saved value '\(key)' is not {version, value}: \(error)")
            }
        }
        let state = SavedState(restoring: entries)
        let store = store
        state.onSetAside = { key, entry, reason in
            store.setAside(id, what: ["key": .string(key), "entry": entry.jsonValue], reason: "saved value '\(key)': \(reason)")
        }
        return state
    }

    private func instanceCreated(_ instance: ViewModelInstance, args: JSONValue, state: SavedState) {
        let id = instance.id
        let stored = StoredInstance(
            id: id, type: instance.typeName, args: args, parent: instance.parent, saved: SavedEntry.jsonObject(state.entries))
        // A restored instance whose saved values came back as they were needs no new record.
        if restoring.removeValue(forKey: id) != stored { store.created(stored) }
        states[id] = state
        // Called once per batch, not per change; weak, as this holds the state.
        state.onChangesWaiting = { [weak self, unowned state] in
            guard let self else { return }
            changed.append((id, state))
            store.changesWaiting()
        }
    }

    /// The host destroyed durable instance `instance`: the store forgets it unless the daemon
    /// is ending (then it comes back at the next start).
    func instanceClosed(_ id: String, reason: CloseReason) {
        guard !durableIDs.isEmpty, editDurableIDs({ $0.remove(id) }) != nil else { return }
        states[id] = nil
        if durableIDs.isEmpty { updateHostHook() }
        guard reason != .shutdown else { return }
        store.destroyed(id)
    }

    /// Recreates every instance the store kept, parents before their children, with the same
    /// ids, args and saved values. One that cannot be (its type is gone, its args no longer
    /// valid, its parent not restored) is set aside and forgotten, never guessed at.
    /// Returns how many were restored.
    func restore(into host: ViewModelHost) -> Int {
        let stored = store.restorable()
        for instance in stored { restoring[instance.id] = instance }
        updateHostHook()
        defer { updateHostHook() }
        var restored = 0
        func restore(_ instance: StoredInstance) {
            // Already live: restored as a parent, or created again by its parent's `init`.
            guard restoring[instance.id] == instance, (try? host.instance(instance.id)) == nil else { return }
            if let parent = instance.parent, (try? host.instance(parent)) == nil, let parentRecord = restoring[parent] {
                restore(parentRecord)
            }
            if let parent = instance.parent, (try? host.instance(parent)) == nil {
                forget(instance, reason: "its parent '\(parent)' was not restored")
                return
            }
            do throws(ViewModelError) {
                try host.create(type: instance.type, id: instance.id, args: instance.args, parent: instance.parent)
                restored += 1
            } catch {
                forget(instance, reason: "it cannot be created again: \(error)")
            }
        }
        for instance in stored { restore(instance) }
        // Anything left (created again by a parent under another type) is set aside too.
        for instance in restoring.values where (try? host.instance(instance.id)) == nil {
            forget(instance, reason: "it was not restored")
        }
        restoring = [:]
        host.deliverHeldEvents()
        return restored
    }

    private func forget(_ instance: StoredInstance, reason: String) {
        restoring[instance.id] = nil
        states[instance.id] = nil
        editDurableIDs { _ = $0.remove(instance.id) }
        store.setAside(instance.id, what: instance.jsonValue, reason: "durable instance not restored: \(reason)")
        store.destroyed(instance.id)
    }
}
