extension ObservableType {
    /// Emits an element only once `dueTime` passed without a newer one; each new element
    /// restarts the wait. On completion a waiting element is emitted at once, then the
    /// completion; an error is forwarded at once and drops the waiting element.
    @inlinable public func debounce(_ dueTime: Duration, scheduler: any Scheduler) -> Observable<Element> {
        let source = asObservable()
        return Observable.make { observer in
            let sink = DebounceSink(observer, dueTime: dueTime, scheduler: scheduler)
            sink.setUpstream(source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }
    }
}

@usableFromInline final class DebounceSink<Element>: Sink<Element> {
    @usableFromInline let dueTime: Duration
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let timer = SerialDisposable()
    @usableFromInline var waiting: Element?
    @usableFromInline var generation = 0

    @inlinable init(_ observer: AnyObserver<Element>, dueTime: Duration, scheduler: any Scheduler) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer)
    }

    @inlinable func on(_ event: Event<Element>) {
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

    @inlinable override func disposeResources() {
        waiting = nil
        timer.dispose()
    }
}
