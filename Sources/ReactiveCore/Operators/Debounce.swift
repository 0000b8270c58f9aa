extension ObservableType {
    /// Emits an element only once `dueTime` passed without a newer one; each new element
    /// restarts the wait. On completion a waiting element is emitted at once, then the
    /// completion; an error is forwarded at once and drops the waiting element.
    public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable { observer in
            let sink = DebounceSink(observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

final class DebounceSink<Element>: Sink<Element> {
    private let dueTime: Duration
    private let scheduler: any Scheduler
    private let timer = SerialDisposable()
    private var waiting: Element?
    private var generation = 0

    init(_ observer: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer)
    }

    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        switch event {
        case .next(let element):
            waiting = element
            generation &+= 1
            let current = generation
            timer.disposable = scheduler.schedule(after: dueTime) { [weak self] in
                guard let self, current == self.generation, let element = self.waiting else { return }
                self.waiting = nil
                self.forward(element)
            }
        case .error(let error):
            waiting = nil
            forwardError(error)
        case .completed:
            if let element = waiting {
                waiting = nil
                forward(element)
            }
            forwardCompleted()
        }
    }

    override func disposeResources() {
        waiting = nil
        timer.dispose()
    }
}
