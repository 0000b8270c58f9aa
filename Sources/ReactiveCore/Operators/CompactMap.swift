extension ObservableType {
    /// Transforms each element and drops the `nil` results; a transform that throws fails
    /// the sequence.
    @inlinable public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        let source = asObservable()
        return Observable { observer in
            let sink = CompactMapSink(observer, transform)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
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
