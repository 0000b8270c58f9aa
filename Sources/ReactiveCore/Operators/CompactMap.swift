extension ObservableType {
    /// Transforms each element and drops the `nil` results; a transform that throws fails
    /// the sequence.
    @inlinable public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMapObservable(source: asObservable(), transform: transform)
    }
}

/// A `compactMap`: its source and transform (see `Observable` for why `run` is stored).
@usableFromInline final class CompactMapObservable<Input, Result>: Observable<Result> {
    @usableFromInline let source: Observable<Input>
    @usableFromInline let transform: (Input) throws -> Result?

    @inlinable init(source: Observable<Input>, transform: @escaping (Input) throws -> Result?) {
        self.source = source
        self.transform = transform
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let compactMap = observable.asRunOwner(CompactMapObservable<Input, Result>.self)
            let sink = CompactMapSink(observer, compactMap.transform)
            sink.setUpstream(compactMap.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}

@usableFromInline final class CompactMapSink<Input, Output>: Sink<Output> {
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable init(_ observer: AnyObserver<Output>, _ transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                if let transformed = try transform(element) {
                    forward(transformed)
                }
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
