extension Observable where Element: FixedWidthInteger {
    /// Emits `0` once `dueTime` has passed, then completes; with a `period`, goes on emitting
    /// `1`, `2`, … every `period` after that and never completes.
    ///
    /// Each tick is scheduled for its own due time (`dueTime + n × period` from the
    /// subscription), so a late tick does not push the following ones later. `period` must be
    /// positive: a period of zero would tick at every turn of the scheduler, and a virtual
    /// scheduler's `start()` would never run out of work.
    @inlinable public static func timer(_ dueTime: Duration, period: Duration? = nil, scheduler: any Scheduler) -> Observable<Element> {
        Observable.make { observer in
            let sink = TimerSink(observer, period: period, scheduler: scheduler)
            sink.start(after: dueTime)
            return sink
        }
    }

    /// Emits `0`, `1`, `2`, … every `period`, the first one `period` after the subscription;
    /// never completes.
    @inlinable public static func interval(_ period: Duration, scheduler: any Scheduler) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler)
    }
}

/// The subscription of a ``Observable/timer(_:period:scheduler:)``: it has no upstream, only
/// the tick it scheduled next.
@usableFromInline final class TimerSink<Element: FixedWidthInteger>: Sink<Element> {
    @usableFromInline let period: Duration?
    @usableFromInline let scheduler: any Scheduler
    @usableFromInline let tick = SerialDisposable()
    @usableFromInline var count: Element = 0
    @usableFromInline var nextDue = SchedulerTime.zero

    @inlinable init(_ observer: AnyObserver<Element>, period: Duration?, scheduler: any Scheduler) {
        self.period = period
        self.scheduler = scheduler
        super.init(observer)
    }

    @inlinable func start(after dueTime: Duration) {
        nextDue = scheduler.now + dueTime
        scheduleTick(after: dueTime)
    }

    @inlinable func scheduleTick(after delay: Duration) {
        tick.disposable = scheduler.schedule(after: delay) { [weak self] in
            self?.fire()
        }
    }

    @inlinable func fire() {
        guard !isDisposed else { return }
        let value = count
        guard let period else {
            forward(value)
            return forwardCompleted()
        }
        // Wraps rather than traps: an interval outliving its element type starts over.
        count &+= 1
        nextDue = nextDue + period
        forward(value)
        guard !isDisposed else { return }
        scheduleTick(after: nextDue - scheduler.now)
    }

    @inlinable override func disposeResources() {
        tick.dispose()
    }
}
