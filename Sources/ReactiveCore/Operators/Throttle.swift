extension ObservableType {
    /// Emits at most one element per `dueTime` window: the first element at once, then,
    /// with `latest` (the default), the newest element received during the window when it
    /// ends (which starts a new window); without `latest`, elements during a window are
    /// dropped. An element arriving once the window has passed is sent at once, and replaces
    /// (drops) one still waiting for the window's end, as in RxSwift. A completion waits for
    /// a pending latest element to be emitted; an error is forwarded at once.
    @inlinable public func throttle(_ dueTime: Duration, latest: Bool = true, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = ThrottleSink(observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class ThrottleSink<Element>: Sink<Element> {
    @usableFromInline let dueTime: Duration
    @usableFromInline let latest: Bool
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let timer = SerialDisposable()
    @usableFromInline var lastEmission: SchedulerTime?
    @usableFromInline var pending: Element?
    @usableFromInline var isTimerRunning = false
    @usableFromInline var isCompletionPending = false

    @inlinable init(_ observer: AnyObserver<Element>, dueTime: Duration, latest: Bool, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
        guard !isDisposed, !isCompletionPending else { return }
        switch event {
        case .next(let element):
            let now = scheduler.now
            if let lastEmission, now - lastEmission < dueTime {
                guard latest else { return }
                pending = element
                if !isTimerRunning { startTimer(after: dueTime - (now - lastEmission)) }
            } else {
                // The window closed: this element goes at once, and one still pending from
                // the window is older, so it is dropped (RxSwift's order; sending it after
                // would settle the output on a stale value).
                if isTimerRunning { cancelTimer() }
                lastEmission = now
                forward(element)
            }
        case .error(let error):
            pending = nil
            forwardError(error)
        case .completed:
            if pending != nil {
                isCompletionPending = true
            } else {
                forwardCompleted()
            }
        }
    }

    @inlinable func startTimer(after delay: Duration) {
        isTimerRunning = true
        timer.disposable = scheduler.schedule(after: delay) { [weak self] in
            guard let self else { return }
            isTimerRunning = false
            if let element = pending {
                pending = nil
                lastEmission = scheduler.now
                forward(element)
            }
            if isCompletionPending { forwardCompleted() }
        }
    }

    @inlinable func cancelTimer() {
        pending = nil
        isTimerRunning = false
        timer.disposable = Disposables.create()
    }

    @inlinable override func disposeResources() {
        pending = nil
        timer.dispose()
    }
}
