extension ObservableType {
    /// On error, asks `notificationHandler` whether to subscribe again: it receives the
    /// source's errors as an observable and returns a trigger; each element of the trigger
    /// subscribes to the source again, the trigger's completion completes the result, and
    /// its error fails it.
    ///
    /// The trigger is subscribed once, before the source. Backoff is a trigger that waits:
    /// ```swift
    /// request.retry(when: { errors in
    ///     errors.scan(into: [any Error]()) { $0.append($1) }.flatMap { failures -> Observable<Int> in
    ///         failures.count > 3
    ///             ? .error(failures[failures.count - 1]) // gives up with the last error
    ///             : .timer(.seconds(1 << (failures.count - 1)), scheduler: scheduler) // 1 s, 2 s, 4 s
    ///     }
    /// })
    /// ```
    @inlinable public func retry<Trigger: ObservableConvertibleType>(
        when notificationHandler: @escaping (Observable<any Error>) throws -> Trigger
    ) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = RetryWhenSink<Element, Trigger.Element>(observer, source: source)
            sink.run { try notificationHandler($0).asObservable() }
            return sink
        }
    }
}

/// The subscription of a `retry(when:)`: the trigger's subscription and the current
/// attempt's, which both end with it (it has no single upstream).
@usableFromInline final class RetryWhenSink<Element, Trigger>: Sink<Element> {
    @usableFromInline let source: Observable<Element>
    /// The source's errors, as the handler's observable sees them.
    @usableFromInline let errors = PublishSubject<any Error>()
    @usableFromInline let trigger = SingleAssignmentDisposable()
    @usableFromInline let attempt = SerialDisposable()
    /// Counts attempts, so a replaced attempt's late events are dropped.
    @usableFromInline var generation = 0

    @inlinable init(_ observer: AnyObserver<Element>, source: Observable<Element>) {
        self.source = source
        super.init(observer)
    }

    @inlinable func run(_ makeTrigger: (Observable<any Error>) throws -> Observable<Trigger>) {
        let triggers: Observable<Trigger>
        do { triggers = try makeTrigger(errors.asObservable()) } catch { return forwardError(error) }
        trigger.setDisposable(triggers.subscribe(erased: AnyObserver { event in
            // Strong capture: see FlatMapSink.
            switch event {
            case .next: self.subscribeSource()
            case .error(let error): self.forwardError(error)
            case .completed: self.forwardCompleted()
            }
        }))
        subscribeSource()
    }

    @inlinable func subscribeSource() {
        guard !isDisposed else { return }
        generation &+= 1
        let current = generation
        let subscription = SingleAssignmentDisposable()
        attempt.disposable = subscription
        subscription.setDisposable(source.subscribe(erased: AnyObserver { event in
            guard current == self.generation else { return }
            switch event {
            case .next(let element):
                self.forward(element)
            case .error(let error):
                // The failed attempt is released before the handler hears the error.
                self.generation &+= 1
                self.attempt.disposable = Disposables.create()
                self.errors.on(.next(error))
            case .completed:
                self.forwardCompleted()
            }
        }))
    }

    @inlinable override func disposeResources() {
        trigger.dispose()
        attempt.dispose()
    }
}
