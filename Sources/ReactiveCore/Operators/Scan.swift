extension ObservableType {
    /// Emits the running accumulation: `accumulator(seed, e1)`, then that with `e2`, and so on.
    /// Each subscription starts again from `seed`.
    @inlinable public func scan<State>(_ seed: State, accumulator: @escaping (State, Element) throws -> State) -> Observable<State> {
        scan(into: seed) { state, element in state = try accumulator(state, element) }
    }

    /// Emits the running accumulation, mutating the state in place.
    @inlinable public func scan<State>(into seed: State, accumulator: @escaping (inout State, Element) throws -> Void) -> Observable<State> {
        ScanObservable(source: asObservable(), seed: seed, accumulator: accumulator)
    }
}

/// A `scan`: its source, seed and accumulator (see `Observable` for why `run` is stored).
@usableFromInline final class ScanObservable<Input, State>: Observable<State> {
    @usableFromInline let source: Observable<Input>
    @usableFromInline let seed: State
    @usableFromInline let accumulator: (inout State, Input) throws -> Void

    @inlinable init(source: Observable<Input>, seed: State, accumulator: @escaping (inout State, Input) throws -> Void) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let scan = observable.asRunOwner(ScanObservable<Input, State>.self)
            let sink = ScanSink(observer, seed: scan.seed, accumulator: scan.accumulator)
            sink.setUpstream(scan.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}

@usableFromInline final class ScanSink<Input, State>: Sink<State> {
    @usableFromInline var state: State
    @usableFromInline let accumulator: (inout State, Input) throws -> Void

    @inlinable init(_ observer: AnyObserver<State>, seed: State, accumulator: @escaping (inout State, Input) throws -> Void) {
        self.state = seed
        self.accumulator = accumulator
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Input>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                try accumulator(&state, element)
                forward(state)
            } catch {
                forwardError(error)
            }
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
    }
}
