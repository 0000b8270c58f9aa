import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Subscriptions that outlive their subject")
struct SubjectLifetimeTests {
    @Test("disposing a subscription after its subject was released is safe and frees the observer")
    func disposeAfterTheSubjectWentAway() {
        weak var observed: Canary?
        var subscriptions: [any Disposable] = []
        do {
            let subject = PublishSubject<Int>()
            let canary = Canary()
            observed = canary
            subscriptions.append(subject.subscribe(onNext: { canary.value = $0 }))
            subscriptions.append(subject.subscribe(onNext: { _ in }))
            subject.onNext(1)
            #expect(canary.value == 1)
        }
        for subscription in subscriptions { subscription.dispose() }
        subscriptions = []
        #expect(observed == nil)
    }

    @Test("a subscription ended by its subject's completion can be disposed after the subject is gone")
    func disposeAfterCompletionAndRelease() {
        var subscription: (any Disposable)?
        var completed = false
        do {
            let subject = BehaviorSubject(value: 0)
            subscription = subject.subscribe(onCompleted: { completed = true })
            subject.onCompleted()
        }
        subscription?.dispose()
        #expect(completed)
    }
}
