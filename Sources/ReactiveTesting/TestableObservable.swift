import ReactiveCore

/// An observable that sends recorded events at recorded virtual times, and records when
/// it was subscribed and unsubscribed.
///
/// A *hot* one sends each event at its absolute time, to whoever is subscribed then. A *cold*
/// one sends, to each subscriber, each event at its time relative to that subscription.
///
/// As in RxTest, a hot one goes on sending its recorded events after an error or a
/// completion, to whoever subscribes later (a `retry` re-subscribing sees them); each single
/// subscriber, hot or cold, receives nothing after its own terminal event. A subscription is
/// recorded as unsubscribed when it is disposed: ReactiveCore's operators dispose a source's
/// subscription at its terminal event, as RxSwift's do, so the recorded ranges are the ones
/// an RxTest test expects.
public final class TestableObservable<Element>: ObservableType {
    /// The events it sends.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Its subscriptions so far.
    public private(set) var subscriptions: [Subscription] = []

    private unowned let scheduler: TestScheduler
    private let isHot: Bool
    /// The hot observable's current subscribers, by subscription index.
    private var hotObservers: [(index: Int, observer: AnyObserver<Element>)] = []

    init(scheduler: TestScheduler, events: [Recorded<Event<Element>>], isHot: Bool) {
        self.scheduler = scheduler
        self.recordedEvents = events
        self.isHot = isHot
        if isHot {
            for recorded in events {
                // Strong: the schedule keeps a hot observable alive until its last event, as the
                // subject it sent through did.
                scheduler.scheduleAt(recorded.time) { self.sendHot(recorded.value) }
            }
        }
    }

    /// Sends `event` to those subscribed now (not to one subscribing while it is delivered).
    private func sendHot(_ event: Event<Element>) {
        for entry in hotObservers {
            guard hotObservers.contains(where: { $0.index == entry.index }) else { continue }
            entry.observer.on(event)
        }
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let index = subscriptions.count
        subscriptions.append(Subscription(scheduler.clock))
        var isStopped = false
        let guarded = AnyObserver<Element> { event in
            guard !isStopped else { return }
            if event.isStopEvent { isStopped = true }
            observer.on(event)
        }
        let inner: any Disposable
        if isHot {
            hotObservers.append((index, guarded))
            inner = Disposables.create { [weak self] in self?.hotObservers.removeAll { $0.index == index } }
        } else {
            let scheduled = CompositeDisposable()
            let start = scheduler.clock
            for recorded in recordedEvents {
                scheduled.insert(scheduler.scheduleAt(start + recorded.time) { guarded.on(recorded.value) })
            }
            inner = scheduled
        }
        return Disposables.create {
            inner.dispose()
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.scheduler.clock)
        }
    }
}
