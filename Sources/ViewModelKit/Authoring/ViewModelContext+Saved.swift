import JSONCore

extension ViewModelContext {
    /// A value this view model saves under `key`: restored when a durable instance comes back
    /// (after a restart, a crash, an idle exit or an upgrade), `defaultValue` otherwise.
    /// Call it in `init`, write the value as the view model changes it (``SavedValue/value``,
    /// ``SavedValue/save(_:)``). `version` and `migrate` are the versioning rule described
    /// on ``SavedValue``.
    @inlinable public func saved<Value: JSONConvertible>(
        _ key: String, default defaultValue: Value, version: Int = 1, migrate: ((SavedEntry) -> Value?)? = nil
    ) -> SavedValue<Value> {
        saved(key, default: defaultValue, codec: .json, version: version, migrate: migrate)
    }

    /// ``saved(_:default:version:migrate:)`` for a `Codable` value (a type that is also
    /// `JSONConvertible` uses that conformance).
    @_disfavoredOverload
    @inlinable public func saved<Value: Codable & Sendable>(
        _ key: String, default defaultValue: Value, version: Int = 1, migrate: ((SavedEntry) -> Value?)? = nil
    ) -> SavedValue<Value> {
        saved(key, default: defaultValue, codec: .codable, version: version, migrate: migrate)
    }

    /// `saved(_:default:version:migrate:)` with an explicit codec.
    @inlinable public func saved<Value>(
        _ key: String, default defaultValue: Value, codec: ValueCodec<Value>, version: Int = 1,
        migrate: ((SavedEntry) -> Value?)? = nil
    ) -> SavedValue<Value> {
        SavedValue(key: key, default: defaultValue, version: version, codec: codec, state: savedState, bag: bag, migrate: migrate)
    }
}
