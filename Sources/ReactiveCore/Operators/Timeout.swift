extension ObservableType {
    /// Fails with ``TimeoutError`` when `dueTime` passes without an element: first counted
    /// from the subscription, then from each element (RxSwift's `timeout(_:scheduler:)`).
    ///
    /// On the timeout the upstream subscription is disposed before the error goes downstream,
    /// so work it was running (a `fromAsync` task) is cancelled. Completion and errors from
    /// the source before the due time are forwarded as they are; disposing cancels the timer.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = TimeoutSink(observer, dueTime: dueTime, scheduler: scheduler)
            sink.startTimer()
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

final class TimeoutSink<Element>: Sink<Element> {
    private let dueTime: Duration
    private let scheduler: any Scheduler
    private let timer = SerialDisposable()
    /// Counts elements, so a timer started before the latest element does nothing.
    private var generation = 0

    init(_ observer: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer)
    }

    func startTimer() {
        let current = generation
        let dueTime = dueTime
        timer.disposable = scheduler.schedule(after: dueTime) { [weak self] in
            guard let self, current == self.generation else { return }
            self.forwardError(TimeoutError(dueTime: dueTime))
        }
    }

    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            generation &+= 1
            forward(element)
            if !isDisposed { startTimer() }
        case .error, .completed:
            forwardTerminal(event)
        }
    }

    override func disposeResources() {
        timer.dispose()
    }
}
