extension ObservableType {
    /// Delivers the events through `scheduler`, in order.
    ///
    /// Events are queued and one scheduled job drains the queue, so a burst costs one
    /// scheduled job, not one per event. After disposal nothing queued is delivered.
    public func observe(on scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = ObserveOnSink(observer, scheduler: scheduler)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

final class ObserveOnSink<Element>: Sink<Element> {
    private let scheduler: any Scheduler
    private var queue: [Event<Element>] = []
    private var drain: (any Disposable)?
    private var isDraining = false
    private var isSourceDone = false

    init(_ observer: AnyObserver<Element>, scheduler: any Scheduler) {
        self.scheduler = scheduler
        super.init(observer)
    }

    func on(_ event: Event<Element>) {
        guard !isDisposed, !isSourceDone else { return }
        if event.isStopEvent { isSourceDone = true }
        queue.append(event)
        if drain == nil, !isDraining {
            // The job holds this sink until it runs; disposal empties the queue.
            drain = scheduler.schedule { self.run() }
        }
    }

    private func run() {
        drain = nil
        isDraining = true
        var index = 0
        while index < queue.count, !isDisposed {
            let event = queue[index]
            index += 1
            switch event {
            case .next(let element): forward(element)
            case .error, .completed: forwardTerminal(event)
            }
        }
        queue.removeAll()
        isDraining = false
    }

    override func disposeResources() {
        queue.removeAll()
        drain?.dispose()
        drain = nil
    }
}
