import JSONCore
import ReactiveCore

/// One value a view model saves: read once in `init` (the restored value, or the default),
/// then written as the view model changes it. Made by `context.saved(_:default:)`.
///
/// ```swift
/// init(ports: Ports, context: Context) {
///     let saved = context.saved("count", default: context.args.start)
///     ports.count.bind(changes.scan(saved.value, accumulator: apply).startWith(saved.value))
///     saved.save(ports.count)            // every value the state takes is saved
/// }
/// ```
///
/// In a durable instance (`vm.create {durable: true}`) each write reaches the daemon's store
/// before the reply or notification it caused is sent; in any other instance of the daemon
/// nothing is saved and writes cost nothing. Under `ViewModelTesting`'s harness the values
/// live in a ``SavedState`` the test can pre-load and read.
///
/// ## Versioning
/// Each saved value carries a `version` (default 1). Change the value's type incompatibly,
/// and raise the version: a value saved under another version is then passed to `migrate`
/// (which returns the new value, or `nil`), and without a migration, or when the bytes no
/// longer decode, the view model starts from the default, the old entry is set aside (kept,
/// never used: the daemon keeps its bytes in its store directory) and the log says which
/// instance and why. A restored value is never a guess.
public final class SavedValue<Value> {
    /// The key the value is saved under (unique within the view model).
    public let key: String
    /// The version the view model declares for the value's type.
    public let version: Int
    /// Where a saved value lives and is written from, in an instance that saves (`nil`:
    /// nothing is saved). Only it is captured by ``save(_:)``'s subscription: this object
    /// itself never escapes the view model's `init` unless the author keeps it, so the
    /// optimizer may make it on the stack (an allocation and a free fewer per `vm.create` of
    /// an instance that is not durable; ViewModelDaemon.docc/Performance.md).
    @usableFromInline let store: SavedValueStore<Value>?
    @usableFromInline let bag: DisposeBag
    /// The latest value while nothing is saved (with a ``store``, the store's is).
    @usableFromInline var unsaved: Value

    // Inlinable, like the port initializers: every Counter `init` makes one, and an
    // unspecialized generic init looks metadata up on every `vm.create`.
    @inlinable init(
        key: String, default defaultValue: Value, version: Int, codec: ValueCodec<Value>, state: SavedState?, bag: DisposeBag,
        migrate: ((SavedEntry) -> Value?)?
    ) {
        self.key = key
        self.version = version
        self.bag = bag
        if let state {
            let restored = state.restore(key, version: version, codec: codec, migrate: migrate) ?? defaultValue
            store = SavedValueStore(key: key, version: version, encode: codec.encode, state: state, current: restored)
            unsaved = restored
        } else {
            store = nil
            unsaved = defaultValue
        }
    }

    /// The latest value: the restored one (or the default) until the view model writes.
    /// Setting it saves it.
    @inlinable public var value: Value {
        get {
            if let store { return store.current }
            return unsaved
        }
        set {
            if let store {
                store.write(newValue)
            } else {
                unsaved = newValue
            }
        }
    }

    /// Saves every value `source` emits, for the instance's lifetime (the subscription
    /// goes with the instance's bag, which thus keeps the saved value alive: a local in
    /// `init` is enough). Where nothing is saved (an instance that is not durable), it does
    /// not even subscribe.
    @inlinable public func save(_ source: some ObservableConvertibleType<Value>) {
        guard let store else { return }
        store.saveAll(source.asObservable(), in: bag)
    }
}
