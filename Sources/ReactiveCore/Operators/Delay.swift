extension ObservableType {
    /// Shifts elements and the completion later by `dueTime`, keeping their order; an error
    /// is forwarded at once (dropping what was still delayed), as in RxSwift.
    @inlinable public func delay(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = DelaySink(observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class DelaySink<Element>: Sink<Element> {
    @usableFromInline let dueTime: Duration
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let timer = SerialDisposable()
    @usableFromInline var queue: [(due: SchedulerTime, event: Event<Element>)] = []
    @usableFromInline var queueStart = 0
    @usableFromInline var isTimerRunning = false

    @inlinable init(_ observer: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        if case .error(let error) = event { return forwardError(error) }
        queue.append((scheduler.now + dueTime, event))
        if !isTimerRunning { startTimer(after: dueTime) }
    }

    @inlinable func startTimer(after delay: Duration) {
        isTimerRunning = true
        timer.disposable = scheduler.schedule(after: delay) { [weak self] in
            self?.drainDue()
        }
    }

    @inlinable func drainDue() {
        isTimerRunning = false
        let now = scheduler.now
        while queueStart < queue.count, queue[queueStart].due <= now, !isDisposed {
            let event = queue[queueStart].event
            queueStart += 1
            switch event {
            case .next(let element): forward(element)
            case .error, .completed: forwardTerminal(event)
            }
        }
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        } else if !isDisposed {
            startTimer(after: queue[queueStart].due - now)
        }
    }

    @inlinable override func disposeResources() {
        queue.removeAll()
        timer.dispose()
    }
}
