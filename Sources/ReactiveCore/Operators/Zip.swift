extension Observable {
    /// Emits `resultSelector` of the sources' elements paired by position: the first of each,
    /// then the second of each, …; elements wait in a queue until every source has one.
    ///
    /// As in RxSwift, completes once every source completed (a source is unsubscribed as soon
    /// as it ends); the first error fails it.
    @inlinable public static func zip<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second,
        resultSelector: @escaping (First.Element, Second.Element) throws -> Element
    ) -> Observable<Element> {
        combinePair(first, second, by: { zipAny($0, $1) }, resultSelector: resultSelector)
    }

    /// Emits the arrays of the sources' elements paired by position (see
    /// ``zip(_:_:resultSelector:)``). No sources: emits `[]`, then completes, as
    /// ``combineLatest(_:)`` does.
    @inlinable public static func zip<Source: ObservableConvertibleType>(_ sources: [Source]) -> Observable<Element>
    where Element == [Source.Element] {
        zipAny(sources.map { $0.asObservable() }) { $0 }
    }

    @inlinable static func zipAny<Value>(
        _ sources: [Observable<Value>],
        _ resultSelector: @escaping ([Value]) throws -> Element
    ) -> Observable<Element> {
        combining(sources, with: ZipSink<Value, Element>.self, resultSelector)
    }
}

extension ObservableType {
    /// Pairs of the sources' elements by position (see ``Observable/zip(_:_:resultSelector:)``).
    @inlinable public static func zip<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second
    ) -> Observable<(First.Element, Second.Element)> where Element == (First.Element, Second.Element) {
        Observable.zip(first, second) { ($0, $1) }
    }
}

/// The subscription of a `zip`: one queue and one subscription per source.
@usableFromInline final class ZipSink<Value, Output>: Sink<Output>, SourceListSink {
    @usableFromInline let resultSelector: ([Value]) throws -> Output
    /// Each source's waiting elements; `heads[i]` is the index of the first still waiting.
    @usableFromInline var queues: [[Value]]
    @usableFromInline var heads: [Int]
    @usableFromInline var isDone: [Bool]
    @usableFromInline var doneCount = 0
    @usableFromInline let subscriptions: [SingleAssignmentDisposable]

    @inlinable init(_ observer: AnyObserver<Output>, arity: Int, resultSelector: @escaping ([Value]) throws -> Output) {
        self.resultSelector = resultSelector
        self.queues = Array(repeating: [], count: arity)
        self.heads = Array(repeating: 0, count: arity)
        self.isDone = Array(repeating: false, count: arity)
        self.subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
        super.init(observer)
    }

    @inlinable func run(_ sources: [Observable<Value>]) {
        subscribeEach(sources, into: subscriptions) { self.on($0, at: $1) }
    }

    @inlinable func on(_ event: Event<Value>, at index: Int) {
        guard !isDisposed else { return }
        switch event {
        case .next(let value):
            queues[index].append(value)
            guard queues.indices.allSatisfy({ heads[$0] < queues[$0].count }) else { return }
            var values: [Value] = []
            values.reserveCapacity(queues.count)
            for source in queues.indices {
                values.append(queues[source][heads[source]])
                heads[source] += 1
                if heads[source] == queues[source].count {
                    queues[source].removeAll(keepingCapacity: true)
                    heads[source] = 0
                }
            }
            do {
                forward(try resultSelector(values))
            } catch {
                forwardError(error)
            }
        case .error(let error):
            forwardError(error)
        case .completed:
            guard !isDone[index] else { return }
            subscriptions[index].dispose()
            isDone[index] = true
            doneCount += 1
            if doneCount == isDone.count { forwardCompleted() }
        }
    }

    @inlinable override func disposeResources() {
        for subscription in subscriptions { subscription.dispose() }
        queues.removeAll()
    }
}
