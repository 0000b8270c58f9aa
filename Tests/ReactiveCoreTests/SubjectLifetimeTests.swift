import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Subscriptions that outlive their subject")
struct SubjectLifetimeTests {
    @Test("disposing a subscription after its subject was released is safe and frees the observer")
    func disposeAfterTheSubjectWentAway() {
        let canary = canaryAfterReleasingTheSubject(observers: 2, canaryAt: 0, value: 1, reversed: false)
        #expect(canary.heard == 1)
        #expect(canary.freed)
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
