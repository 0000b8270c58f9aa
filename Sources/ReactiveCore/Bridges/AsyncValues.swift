import Synchronization

extension ObservableType where Element: Sendable {
    /// This sequence's elements as an `AsyncSequence`, ending when it completes and throwing
    /// its error.
    ///
    /// Subscribes when read (on the graph's thread); the stream buffers without bound and may
    /// be iterated from any task. When the iteration is cancelled or abandoned, the
    /// subscription is disposed on the graph's thread when the next element arrives; use
    /// ``values(disposingOn:)`` to have it disposed promptly instead.
    public var values: AsyncThrowingStream<Element, any Error> {
        makeValues(disposingOn: nil)
    }

    /// This sequence's elements as an `AsyncSequence` (see ``values``); when the iteration is
    /// cancelled or abandoned, the subscription is disposed at once through `scheduler`
    /// (which must be the graph's scheduler).
    public func values(disposingOn scheduler: any SerialScheduler) -> AsyncThrowingStream<Element, any Error> {
        makeValues(disposingOn: scheduler)
    }

    private func makeValues(disposingOn scheduler: (any SerialScheduler)?) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let abandoned = AbandonFlag()
        let subscription = SingleAssignmentDisposable()
        let confined = GraphConfined(subscription)
        continuation.onTermination = { _ in
            abandoned.set()
            scheduler?.enqueue { confined.value.dispose() }
        }
        subscription.setDisposable(subscribe(
            onNext: { element in
                if abandoned.isSet {
                    subscription.dispose()
                } else {
                    continuation.yield(element)
                }
            },
            onError: { continuation.finish(throwing: $0) },
            onCompleted: { continuation.finish() }
        ))
        return stream
    }
}

/// Set from any thread when a stream's consumer goes away; read on the graph's thread.
final class AbandonFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
