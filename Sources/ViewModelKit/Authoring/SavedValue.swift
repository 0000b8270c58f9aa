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
    /// Its codec's encoding: all a write needs (the whole codec, five closures, was copied
    /// into every instance's value and released with it; decoding is done once, in `init`).
    @usableFromInline let encode: (Value) -> JSONValue
    @usableFromInline let state: SavedState?
    @usableFromInline let bag: DisposeBag
    @usableFromInline var current: Value

    // Inlinable, like the port initializers: every Counter `init` makes one, and an
    // unspecialized generic init looks metadata up on every `vm.create`.
    @inlinable init(
        key: String, default defaultValue: Value, version: Int, codec: ValueCodec<Value>, state: SavedState?, bag: DisposeBag,
        migrate: ((SavedEntry) -> Value?)?
    ) {
        self.key = key
        self.version = version
        self.encode = codec.encode
        self.state = state
        self.bag = bag
        if let state {
            current = state.restore(key, version: version, codec: codec, migrate: migrate) ?? defaultValue
        } else {
            current = defaultValue
        }
    }

    /// The latest value: the restored one (or the default) until the view model writes.
    /// Setting it saves it.
    @inlinable public var value: Value {
        get { current }
        set {
            current = newValue
            if let state { state.write(key, SavedEntry(version: version, value: encode(newValue))) }
        }
    }

    /// Saves every value `source` emits, for the instance's lifetime (the subscription
    /// goes with the instance's bag, which thus keeps this value alive: a local in `init`
    /// is enough). Where nothing is saved (an instance that is not durable), it does not
    /// even subscribe.
    @inlinable public func save(_ source: some ObservableConvertibleType<Value>) {
        guard state != nil else { return }
        saveAll(source.asObservable())
    }

    @usableFromInline func saveAll(_ source: Observable<Value>) {
        source.subscribe(onNext: { value in self.value = value }).disposed(by: bag)
    }
}
