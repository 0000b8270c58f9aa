import JSONCore
import ReactiveCore

/// The saved half of a ``SavedValue`` in an instance that saves: the latest value and where
/// each new one is written. Made only when there is a ``SavedState``.
@usableFromInline final class SavedValueStore<Value> {
    let key: String
    let version: Int
    /// The value's codec's encoding (decoding is done once, when restored).
    let encode: (Value) -> JSONValue
    let state: SavedState
    /// The latest value: the restored one (or the default) until written.
    @usableFromInline private(set) var current: Value

    @usableFromInline init(key: String, version: Int, encode: @escaping (Value) -> JSONValue, state: SavedState, current: Value) {
        self.key = key
        self.version = version
        self.encode = encode
        self.state = state
        self.current = current
    }

    /// Takes `value` as the latest and saves it.
    @usableFromInline func write(_ value: Value) {
        current = value
        state.write(key, SavedEntry(version: version, value: encode(value)))
    }

    /// Writes every value `source` emits, for as long as `bag` is not disposed.
    @usableFromInline func saveAll(_ source: Observable<Value>, in bag: DisposeBag) {
        source.subscribe(onNext: { value in self.write(value) }).disposed(by: bag)
    }
}
