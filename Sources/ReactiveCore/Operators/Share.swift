/// How long a shared subscription and its replay buffer live.
public enum SubjectLifetimeScope: Sendable {
    /// The source subscription and the replay buffer exist while at least one subscriber
    /// is connected. When the last subscriber leaves, or the source ends, both are dropped,
    /// and the next subscriber starts a fresh subscription to the source.
    case whileConnected
    /// One replay buffer for the observable's whole life: it survives the subscriber count
    /// dropping to zero (the source is unsubscribed, then subscribed again by the next
    /// subscriber) and, after the source ended, new subscribers get the buffer and the end.
    case forever
}

extension ObservableType {
    /// Shares one subscription to this source among all subscribers, replaying the latest
    /// `replay` elements to each new subscriber. Side effects upstream run once per event,
    /// however many subscribers there are.
    @inlinable public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        let connection = ShareConnection(source: asObservable(), replay: replay, scope: scope)
        return Observable.make { observer in connection.subscribe(observer) }
    }
}

/// The state of a shared observable: its subject, the source subscription and the count of
/// subscribers.
@usableFromInline final class ShareConnection<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let replay: Int
    @usableFromInline let scope: SubjectLifetimeScope
    @usableFromInline var subject: ReplaySubject<Element>?
    @usableFromInline var sourceSubscription: SingleAssignmentDisposable?
    @usableFromInline var subscriberCount = 0
    /// Tells an old connection's late events and disposals apart from the current one's.
    @usableFromInline var generation = 0

    @inlinable init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
    }

    @inlinable func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
        let subject: ReplaySubject<Element>
        if let existing = self.subject {
            subject = existing
        } else {
            subject = ReplaySubject.create(bufferSize: replay)
            self.subject = subject
        }
        if scope == .forever, subject.isStopped {
            return subject.subscribe(observer)
        }
        let generation = self.generation
        subscriberCount += 1
        let subscription = subject.subscribe(observer)
        if subscriberCount == 1, sourceSubscription == nil {
            connect(subject)
        }
        return Disposables.create {
            subscription.dispose()
            self.subscriberLeft(generation: generation)
        }
    }

    @inlinable func connect(_ subject: ReplaySubject<Element>) {
        let connection = SingleAssignmentDisposable()
        sourceSubscription = connection
        let generation = self.generation
        connection.setDisposable(source.subscribe(erased: AnyObserver { event in
            guard generation == self.generation else { return }
            if event.isStopEvent { self.sourceEnded() }
            subject.on(event)
        }))
    }

    /// The source ended: its subscription is released (RxSwift's share unsubscribes from an
    /// ended source, and a foreign source may hold resources until it is disposed), and the
    /// next subscriber of a `whileConnected` share starts over.
    @inlinable func sourceEnded() {
        generation &+= 1
        subscriberCount = 0
        let connection = sourceSubscription
        sourceSubscription = nil
        if scope == .whileConnected { subject = nil }
        connection?.dispose()
    }

    @inlinable func subscriberLeft(generation: Int) {
        guard generation == self.generation else { return }
        subscriberCount -= 1
        guard subscriberCount == 0 else { return }
        self.generation &+= 1
        let connection = sourceSubscription
        sourceSubscription = nil
        if scope == .whileConnected { subject = nil }
        connection?.dispose()
    }
}
