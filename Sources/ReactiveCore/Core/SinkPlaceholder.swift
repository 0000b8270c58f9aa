/// What a `Sink` holds as its upstream subscription until the real one arrives (see
/// Sink.swift): one shared object, never disposed through a sink.
@usableFromInline final class SinkPlaceholder: Disposable, Sendable {
    /// The one placeholder.
    @usableFromInline static let shared = SinkPlaceholder()

    @usableFromInline init() {}

    @inlinable func dispose() {}
}
