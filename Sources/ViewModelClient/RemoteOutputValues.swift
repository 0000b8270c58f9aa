import JSONCore
import VMClient
import ViewModelKit

/// The values of one output of a ``RemoteViewModel``, decoded with the output's codec: an
/// `AsyncSequence` over a `vm.subscribe` that watches that output alone.
///
/// It ends when the instance is gone (`vm.closed`) or after `client.unsubscribe(subscription)`,
/// and throws what the subscription throws (a lost connection) as `VMClientError`.
/// A value the output's codec cannot read throws `VMClientError.protocolViolation(_:)`.
/// After an overflow (this connection read too slowly) a state's newest value follows, as on
/// any subscription; an event output's values in the gap are gone (watch
/// ``subscription`` itself to see the gap).
public struct RemoteOutputValues<Value>: AsyncSequence {
    public typealias Element = Value

    /// The subscription underneath: pass it to `VMClient.unsubscribe(_:)` to stop watching.
    public let subscription: VMSubscription
    /// The output's wire name.
    public let output: String
    let codec: ValueCodec<Value>

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: subscription.makeAsyncIterator(), output: output, codec: codec)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var events: VMSubscription.AsyncIterator
        let output: String
        let codec: ValueCodec<Value>

        public mutating func next() async throws -> Value? {
            while let event = try await events.next() {
                if let value = try decoded(event) { return value }
            }
            return nil
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
            while let event = try await events.next(isolation: actor) {
                if let value = try decoded(event) { return value }
            }
            return nil
        }

        /// The value `event` carries, `nil` for an event that carries none of this output's.
        private func decoded(_ event: VMSubscriptionEvent) throws(VMClientError) -> Value? {
            guard case .output(let value) = event, value.output == output else { return nil }
            do {
                return try codec.decoded(value.value)
            } catch {
                throw .protocolViolation("vm.output \(output) of \(value.instance): \(error)")
            }
        }
    }
}
