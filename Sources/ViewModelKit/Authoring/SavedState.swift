import JSONCore

/// One saved value as it is kept: its JSON and the version of the value's type it was
/// written with (see ``SavedValue``'s versioning rule).
public struct SavedEntry: Sendable, Equatable {
    /// The version the view model declared when it wrote the value.
    public var version: Int
    /// The value, encoded by its codec.
    public var value: JSONValue

    /// An entry from its parts.
    public init(version: Int, value: JSONValue) {
        self.version = version
        self.value = value
    }
}

/// The saved values of one instance, by key: what was restored when it was created, and
/// every change since (the kit's counterpart of Jetpack's `SavedStateHandle`).
///
/// View models do not use it directly: they call `context.saved(_:default:)` in `init` and
/// get a ``SavedValue``. Whoever hosts the instance makes one: the daemon for a durable
/// instance (restored from its store, each change appended to it), the testing harness for
/// every instance (in memory, so a test can pre-load values and read what was saved). An
/// instance given none (a daemon instance that is not durable) saves nothing: its saved
/// values start from their defaults and their writes cost nothing.
///
/// Threading: used on the instance's scheduler thread only, like the instance.
public final class SavedState {
    /// The values saved so far (restored ones included), by key.
    public private(set) var entries: [String: SavedEntry]
    /// Restored entries a view model could not read back (its type changed without a
    /// migration, or the bytes no longer decode), by key: kept aside, never used.
    public private(set) var setAside: [String: SavedEntry] = [:]
    /// Called when a change starts waiting to be taken (``takeChanges()``): once per batch,
    /// however many changes follow, so that saving stays cheap for a view model that changes
    /// a value thousands of times between two writes of the daemon's store. Nothing is
    /// tracked while it is `nil`.
    public var onChangesWaiting: (() -> Void)?
    /// The keys changed since the last ``takeChanges()``, in the order of their first change
    /// (a view model saves a handful of keys: a scan is cheaper than hashing).
    private var changedKeys: [String] = []
    /// Called when a restored entry is set aside, with the key, the entry and why (the
    /// daemon logs it and keeps the bytes).
    public var onSetAside: ((String, SavedEntry, String) -> Void)?

    /// A state holding `entries` (a restored instance's), or none.
    public init(restoring entries: [String: SavedEntry] = [:]) {
        self.entries = entries
    }

    /// Writes `value` under `key` and notes the change.
    public func write(_ key: String, _ entry: SavedEntry) {
        entries[key] = entry
        guard let onChangesWaiting else { return }
        if changedKeys.isEmpty {
            changedKeys.append(key)
            onChangesWaiting()
        } else if !changedKeys.contains(key) {
            changedKeys.append(key)
        }
    }

    /// The entries changed since the last call (each key once, with its latest entry), in
    /// the order of their first change.
    public func takeChanges() -> [(key: String, entry: SavedEntry)] {
        let keys = changedKeys
        changedKeys = []
        return keys.compactMap { key in entries[key].map { (key, $0) } }
    }

    /// The value restored under `key` (see ``SavedValue`` for the rule), or `nil` when
    /// there is none or it cannot be read, in which case it is set aside.
    @usableFromInline func restore<Value>(
        _ key: String, version: Int, codec: ValueCodec<Value>, migrate: ((SavedEntry) -> Value?)?
    ) -> Value? {
        guard let entry = entries[key] else { return nil }
        if entry.version == version {
            do throws(JSONDecodingError) {
                return try codec.decode(entry.value)
            } catch {
                if let migrated = migrate?(entry) { return rewritten(key, migrated, version: version, codec: codec) }
                putAside(key, entry, "the saved value no longer decodes (\(error))")
                return nil
            }
        }
        if let migrated = migrate?(entry) { return rewritten(key, migrated, version: version, codec: codec) }
        putAside(key, entry, "saved with version \(entry.version), the view model now declares version \(version) and migrates none")
        return nil
    }

    /// A migrated value, saved at once under the current version.
    private func rewritten<Value>(_ key: String, _ value: Value, version: Int, codec: ValueCodec<Value>) -> Value {
        write(key, SavedEntry(version: version, value: codec.encode(value)))
        return value
    }

    private func putAside(_ key: String, _ entry: SavedEntry, _ reason: String) {
        entries[key] = nil
        setAside[key] = entry
        onSetAside?(key, entry, reason)
    }
}
