extension ObservableType {
    /// Transforms each element; a transform that throws fails the sequence.
    ///
    /// The source is kept as it is, not as `asObservable()`: mapping a subject or a view
    /// model's port (the usual first step of a chain) then needs no wrapping observable, an
    /// object and a closure built and freed per chain (`.ci/instructions`, `create`).
    @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        let source = self
        return Observable { observer in
            let sink = MapSink(observer, transform)
            sink.setUpstream(source.subscribe(AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class MapSink<Input, Output>: Sink<Output> {
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable init(_ observer: AnyObserver<Output>, _ transform: @escaping (Input) throws -> Output) {
        self.transform = transform
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                forward(try transform(element))
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
