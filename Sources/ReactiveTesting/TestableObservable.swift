import ReactiveCore

/// An observable that sends recorded events at recorded virtual times, and records when
/// it was subscribed and unsubscribed.
///
/// A *hot* one sends each event at its absolute time, to whoever is subscribed then. A *cold*
/// one sends, to each subscriber, each event at its time relative to that subscription.
public final class TestableObservable<Element>: ObservableType {
    /// The events it sends.
    public let recordedEvents: [Recorded<Event<Element>>]
    /// Its subscriptions so far.
    public private(set) var subscriptions: [Subscription] = []

    private unowned let scheduler: TestScheduler
    private let isHot: Bool
    private let hotSubject = PublishSubject<Element>()

    init(scheduler: TestScheduler, events: [Recorded<Event<Element>>], isHot: Bool) {
        self.scheduler = scheduler
        self.recordedEvents = events
        self.isHot = isHot
        if isHot {
            for recorded in events {
                scheduler.scheduleAt(recorded.time) { [hotSubject] in hotSubject.on(recorded.value) }
            }
        }
    }

    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let index = subscriptions.count
        subscriptions.append(Subscription(scheduler.clock))
        let inner: any Disposable
        if isHot {
            inner = hotSubject.subscribe(observer)
        } else {
            let scheduled = CompositeDisposable()
            let start = scheduler.clock
            for recorded in recordedEvents {
                scheduled.insert(scheduler.scheduleAt(start + recorded.time) { observer.on(recorded.value) })
            }
            inner = scheduled
        }
        return Disposables.create {
            inner.dispose()
            self.subscriptions[index] = Subscription(self.subscriptions[index].subscribe, self.scheduler.clock)
        }
    }
}
