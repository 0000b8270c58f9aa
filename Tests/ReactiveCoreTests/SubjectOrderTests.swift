import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Subjects deliver in subscription order however observers come and go")
struct SubjectOrderTests {
    @Test("observers joining after the first one left still hear events in subscription order")
    func orderAfterTheFirstObserverLeft() {
        let subject = PublishSubject<Int>()
        let log = Log()
        let a = subject.subscribe(onNext: { log.append("a\($0)") })
        let b = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        a.dispose()
        let c = subject.subscribe(onNext: { log.append("c\($0)") })
        subject.onNext(2)
        b.dispose()
        c.dispose()
        let d = subject.subscribe(onNext: { log.append("d\($0)") })
        let e = subject.subscribe(onNext: { log.append("e\($0)") })
        subject.onNext(3)
        #expect(log.entries == ["a1", "b1", "b2", "c2", "d3", "e3"])
        d.dispose()
        e.dispose()
        #expect(!subject.hasObservers)
    }

    @Test("an observer subscribed while an event is delivered hears only the next one, after the others")
    func subscribedDuringDelivery() {
        let subject = PublishSubject<Int>()
        let log = Log()
        var late: (any Disposable)?
        let first = subject.subscribe(onNext: { value in
            log.append("first\(value)")
            if late == nil { late = subject.subscribe(onNext: { log.append("late\($0)") }) }
        })
        let second = subject.subscribe(onNext: { log.append("second\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        #expect(log.entries == ["first1", "second1", "first2", "second2", "late2"])
        first.dispose()
        second.dispose()
        late?.dispose()
    }

    @Test("the end reaches every observer, the first one included, and they are released")
    func terminalReachesAll() {
        let subject = PublishSubject<Int>()
        let log = Log()
        _ = subject.subscribe(onCompleted: { log.append("a") })
        _ = subject.subscribe(onCompleted: { log.append("b") })
        subject.onCompleted()
        #expect(log.entries == ["a", "b"])
        #expect(!subject.hasObservers)
    }
}
