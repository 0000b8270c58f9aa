import ReactiveCore
import ReactiveTesting
import Testing

/// A subject keeps its first observer in place and the rest (more observers, re-entrant
/// events, a publish subject's end) in an object made on first need (ObserverHub.swift);
/// these cross from one to the other both ways.
@Suite("Subjects moving between one observer and more")
struct SubjectOverflowTests {
    @Test("after every observer left, a new one is the first again and hears what follows, alone")
    func firstAgainAfterAllLeft() {
        let subject = PublishSubject<Int>()
        var heard: [String] = []
        let a = subject.subscribe(onNext: { heard.append("a\($0)") })
        let b = subject.subscribe(onNext: { heard.append("b\($0)") })
        subject.onNext(1)
        a.dispose()
        b.dispose()
        #expect(!subject.hasObservers)
        subject.onNext(2)
        let c = subject.subscribe(onNext: { heard.append("c\($0)") })
        #expect(subject.hasObservers)
        subject.onNext(3)
        c.dispose()
        #expect(heard == ["a1", "b1", "c3"])
        #expect(!subject.hasObservers)
    }

    @Test("a later observer still hears after the first one when the first joined after it left")
    func orderAcrossTheSlots() {
        let subject = PublishSubject<Int>()
        var heard: [String] = []
        let a = subject.subscribe(onNext: { heard.append("a\($0)") })
        let b = subject.subscribe(onNext: { heard.append("b\($0)") })
        a.dispose()
        let c = subject.subscribe(onNext: { heard.append("c\($0)") })
        subject.onNext(1)
        b.dispose()
        subject.onNext(2)
        c.dispose()
        #expect(heard == ["b1", "c1", "c2"])
    }

    @Test("a single observer's re-entrant sends arrive in order, on every delivery")
    func reentrantSendsToOneObserver() {
        let subject = PublishSubject<Int>()
        var heard: [Int] = []
        let subscription = subject.subscribe(onNext: { value in
            heard.append(value)
            if value % 10 == 0 {
                subject.onNext(value + 1)
                subject.onNext(value + 2)
            }
        })
        subject.onNext(10)
        subject.onNext(20)
        subscription.dispose()
        #expect(heard == [10, 11, 12, 20, 21, 22])
    }

    @Test("a publish subject ended by an error gives that error to later subscribers, and ignores what follows")
    func errorIsKept() {
        let subject = PublishSubject<Int>()
        var first: [Event<Int>] = []
        _ = subject.subscribe(onNext: { first.append(.next($0)) }, onError: { first.append(.error($0)) })
        subject.onNext(1)
        subject.onError(TestError(code: 3))
        subject.onNext(2)
        subject.onCompleted()
        var late: [Event<Int>] = []
        _ = subject.subscribe(onNext: { late.append(.next($0)) }, onError: { late.append(.error($0)) },
                              onCompleted: { late.append(.completed) })
        #expect(first == [.next(1), .error(TestError(code: 3))])
        #expect(late == [.error(TestError(code: 3))])
        #expect(subject.isStopped)
        #expect(!subject.hasObservers)
    }

    @Test("a subject freed while observers beyond the first are subscribed lets each be disposed afterwards")
    func freedWithSeveralObservers() {
        let canary = canaryAfterReleasingTheSubject(observers: 3, canaryAt: 1, value: 4, reversed: true)
        #expect(canary.heard == 4)
        #expect(canary.freed)
    }
}
