extension Observable {
    /// Emits `resultSelector` of the latest elements of both sources, once each has emitted,
    /// whenever either emits.
    ///
    /// Completes when both completed (or when one completed before ever emitting and the
    /// other emits nothing combinable); the first error fails it.
    @inlinable public static func combineLatest<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second,
        resultSelector: @escaping (First.Element, Second.Element) throws -> Element
    ) -> Observable<Element> {
        combinePair(first, second, by: { combineLatestAny($0, $1) }, resultSelector: resultSelector)
    }

    /// The three-source form of ``combineLatest(_:_:resultSelector:)``.
    @inlinable public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C,
        resultSelector: @escaping (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        let sources: [Observable<Any>] = [
            a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any }, c.asObservable().map { $0 as Any },
        ]
        return combineLatestAny(sources) { values in
            guard let x = values[0] as? A.Element, let y = values[1] as? B.Element, let z = values[2] as? C.Element else {
                throw CombineLatestSlotMismatch()
            }
            return try resultSelector(x, y, z)
        }
    }

    /// The four-source form of ``combineLatest(_:_:resultSelector:)``.
    @inlinable public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType, D: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, _ d: D,
        resultSelector: @escaping (A.Element, B.Element, C.Element, D.Element) throws -> Element
    ) -> Observable<Element> {
        let sources: [Observable<Any>] = [
            a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any },
            c.asObservable().map { $0 as Any }, d.asObservable().map { $0 as Any },
        ]
        return combineLatestAny(sources) { values in
            guard let w = values[0] as? A.Element, let x = values[1] as? B.Element,
                  let y = values[2] as? C.Element, let z = values[3] as? D.Element else {
                throw CombineLatestSlotMismatch()
            }
            return try resultSelector(w, x, y, z)
        }
    }

    /// Emits the array of the latest elements of all `sources`, once each has emitted,
    /// whenever any emits.
    ///
    /// No sources: emits `[]`, then completes, as RxSwift does, so a list of children that
    /// becomes empty still reaches its observers as an empty list. (RxJS and RxJava differ
    /// here: their `combineLatest` of no sources completes without emitting.)
    @inlinable public static func combineLatest<Source: ObservableConvertibleType>(_ sources: [Source]) -> Observable<Element>
    where Element == [Source.Element] {
        combineLatestAny(sources.map { $0.asObservable() }) { $0 }
    }

    @inlinable static func combineLatestAny<Value>(
        _ sources: [Observable<Value>],
        _ resultSelector: @escaping ([Value]) throws -> Element
    ) -> Observable<Element> {
        combining(sources, with: CombineLatestSink<Value, Element>.self, resultSelector)
    }

    /// Subscribes one `Sink` (a ``CombineLatestSink`` or a ``ZipSink``) to every source; no
    /// sources emit `resultSelector([])`, then complete.
    @inlinable static func combining<Value, Sink: SourceListSink>(
        _ sources: [Observable<Value>],
        with sink: Sink.Type,
        _ resultSelector: @escaping ([Value]) throws -> Element
    ) -> Observable<Element> where Sink.Value == Value, Sink.Output == Element {
        Observable.make { observer in
            if sources.isEmpty { return combiningNothing(observer, resultSelector) }
            let sink = Sink(observer, arity: sources.count, resultSelector: resultSelector)
            sink.run(sources)
            return sink
        }
    }

    /// Two sources erased to `Any` and combined by `combine` (`combineLatestAny` or
    /// `zipAny`), each slot cast back for `resultSelector`.
    @inlinable static func combinePair<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second,
        by combine: ([Observable<Any>], @escaping ([Any]) throws -> Element) -> Observable<Element>,
        resultSelector: @escaping (First.Element, Second.Element) throws -> Element
    ) -> Observable<Element> {
        let sources: [Observable<Any>] = [first.asObservable().map { $0 as Any }, second.asObservable().map { $0 as Any }]
        return combine(sources) { values in
            // The casts cannot fail: each slot holds what its own source emitted.
            guard let a = values[0] as? First.Element, let b = values[1] as? Second.Element else {
                throw CombineLatestSlotMismatch()
            }
            return try resultSelector(a, b)
        }
    }

    /// What combining no sources gives (`combineLatest` and `zip` of an empty array):
    /// `resultSelector([])`, then completion, as in RxSwift.
    @inlinable static func combiningNothing<Value>(
        _ observer: AnyObserver<Element>, _ resultSelector: ([Value]) throws -> Element
    ) -> any Disposable {
        do {
            observer.on(.next(try resultSelector([])))
        } catch {
            observer.on(.error(error))
            return NopDisposable()
        }
        observer.on(.completed)
        return NopDisposable()
    }
}

extension ObservableType {
    /// Pairs of the latest elements of both sources (see ``Observable/combineLatest(_:_:resultSelector:)``).
    @inlinable public static func combineLatest<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second
    ) -> Observable<(First.Element, Second.Element)> where Element == (First.Element, Second.Element) {
        Observable.combineLatest(first, second) { ($0, $1) }
    }

    /// Triples of the latest elements of the three sources.
    @inlinable public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C
    ) -> Observable<(A.Element, B.Element, C.Element)> where Element == (A.Element, B.Element, C.Element) {
        Observable.combineLatest(a, b, c) { ($0, $1, $2) }
    }
}

/// Thrown only if a combineLatest slot held a value of the wrong type, which cannot happen.
@usableFromInline struct CombineLatestSlotMismatch: Error {
    @inlinable init() {}
}

/// A sink that combines a list of sources of one element type: what ``ObservableType``'s
/// `combining(_:with:_:)` builds for `combineLatest` and `zip`.
@usableFromInline protocol SourceListSink<Value, Output>: Disposable {
    associatedtype Value
    associatedtype Output
    init(_ observer: AnyObserver<Output>, arity: Int, resultSelector: @escaping ([Value]) throws -> Output)
    func run(_ sources: [Observable<Value>])
}

@usableFromInline final class CombineLatestSink<Value, Output>: Sink<Output>, SourceListSink {
    @usableFromInline let resultSelector: ([Value]) throws -> Output
    @usableFromInline var latest: [Value?]
    @usableFromInline var valueCount = 0
    @usableFromInline var isDone: [Bool]
    @usableFromInline var doneCount = 0
    /// One per source; a source's is disposed as soon as it ends (RxSwift releases an ended
    /// source at once, and ported RxTest tests expect it).
    @usableFromInline let subscriptions: [SingleAssignmentDisposable]

    @inlinable init(_ observer: AnyObserver<Output>, arity: Int, resultSelector: @escaping ([Value]) throws -> Output) {
        self.resultSelector = resultSelector
        self.latest = Array(repeating: nil, count: arity)
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
            if latest[index] == nil { valueCount += 1 }
            latest[index] = value
            if valueCount == latest.count {
                do {
                    // Every slot is filled once valueCount equals the arity.
                    forward(try resultSelector(latest.compactMap { $0 }))
                } catch {
                    forwardError(error)
                }
            } else if allOthersDone(except: index) {
                forwardCompleted()
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

    @inlinable func allOthersDone(except index: Int) -> Bool {
        isDone.indices.allSatisfy { $0 == index || isDone[$0] }
    }

    @inlinable override func disposeResources() {
        for subscription in subscriptions { subscription.dispose() }
    }
}
