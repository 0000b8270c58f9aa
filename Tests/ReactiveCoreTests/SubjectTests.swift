import ReactiveCore
import ReactiveTesting
import Testing

@Suite("Subjects and relays")
struct SubjectTests {
    @Test("a publish subject sends only what follows the subscription")
    func publishSendsLiveEventsOnly() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        scheduler.scheduleAt(100) { subject.onNext(1) }
        scheduler.scheduleAt(300) { subject.onNext(2) }
        scheduler.scheduleAt(400) { subject.onCompleted() }
        scheduler.scheduleAt(500) { subject.onNext(3) }
        let observer = scheduler.start(created: 0, subscribed: 200, disposed: 1000) { subject.asObservable() }
        #expect(observer.events == [.next(300, 2), .completed(400)])
    }

    @Test("a subscriber arriving after the end of a publish subject gets the terminal event")
    func publishLateSubscriberGetsTerminal() {
        let subject = PublishSubject<Int>()
        subject.onError(TestError())
        let scheduler = TestScheduler()
        let observer = scheduler.createObserver(Int.self)
        _ = subject.subscribe(observer)
        #expect(observer.events == [.error(0, TestError())])
    }

    @Test("a behavior subject replays its current value, then live values")
    func behaviorReplaysCurrentValue() {
        let scheduler = TestScheduler()
        let subject = BehaviorSubject(value: 0)
        scheduler.scheduleAt(150) { subject.onNext(1) }
        scheduler.scheduleAt(250) { subject.onNext(2) }
        let observer = scheduler.start(created: 0, subscribed: 200, disposed: 300) { subject.asObservable() }
        #expect(observer.events == [.next(200, 1), .next(250, 2)])
        #expect(subject.value == 2)
    }

    @Test("a completed behavior subject sends only the completion to new subscribers")
    func behaviorAfterCompletion() {
        let scheduler = TestScheduler()
        let subject = BehaviorSubject(value: 7)
        subject.onCompleted()
        let observer = scheduler.createObserver(Int.self)
        _ = subject.subscribe(observer)
        #expect(observer.events == [.completed(0)])
    }

    @Test("a replay subject replays its buffer, bounded by its size")
    func replayBounded() {
        let scheduler = TestScheduler()
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        for value in 1...4 { subject.onNext(value) }
        let observer = scheduler.createObserver(Int.self)
        _ = subject.subscribe(observer)
        subject.onNext(5)
        #expect(observer.values == [3, 4, 5])
    }

    @Test("an ended replay subject replays its buffer then the end")
    func replayAfterEnd() {
        let scheduler = TestScheduler()
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...40 { subject.onNext(value) }
        subject.onError(TestError())
        let observer = scheduler.createObserver(Int.self)
        _ = subject.subscribe(observer)
        #expect(observer.values == Array(1...40))
        #expect(observer.error as? TestError == TestError())
    }

    @Test("a subject ignores everything after its terminal event")
    func subjectEnforcesGrammar() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        _ = subject.subscribe(observer)
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onError(TestError())
        #expect(observer.events == [.next(0, 1), .completed(0)])
    }

    @Test("relays expose their value and emit what they accept")
    func relays() {
        let scheduler = TestScheduler()
        let behavior = BehaviorRelay(value: "a")
        let publish = PublishRelay<String>()
        let observer = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        behavior.subscribe(observer).disposed(by: bag)
        publish.subscribe(observer).disposed(by: bag)
        behavior.accept("b")
        publish.accept("c")
        #expect(behavior.value == "b")
        #expect(observer.values == ["a", "b", "c"])
        #expect(publish.hasObservers)
    }

    @Test("re-entrant sends are trampolined: every observer sees the same order")
    func reentrantSendsAreTrampolined() {
        let subject = PublishSubject<Int>()
        let log = Log()
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            log.append("A\(value)")
            if value == 1 {
                subject.onNext(2)
                // The re-entrant event is queued, not delivered inside this call.
                log.append("A sent 2")
            }
        }).disposed(by: bag)
        subject.subscribe(onNext: { log.append("B\($0)") }).disposed(by: bag)
        subject.onNext(1)
        #expect(log.entries == ["A1", "A sent 2", "B1", "A2", "B2"])
    }

    @Test("inside an observer, a behavior relay's value is the one being delivered")
    func behaviorValueDuringReentrantDelivery() {
        let relay = BehaviorRelay(value: 0)
        var seen: [String] = []
        let subscription = relay.subscribe(onNext: { value in
            if value == 1 { relay.accept(2) }
            seen.append("\(value):\(relay.value)")
        })
        relay.accept(1)
        #expect(seen == ["0:0", "1:1", "2:2"])
        #expect(relay.value == 2)
        subscription.dispose()
    }

    @Test("a terminal event sent re-entrantly arrives after the current element")
    func reentrantTerminalIsQueued() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let first = scheduler.createObserver(Int.self)
        _ = subject.subscribe(onNext: { if $0 == 1 { subject.onCompleted() } })
        _ = subject.subscribe(first)
        subject.onNext(1)
        #expect(first.events == [.next(0, 1), .completed(0)])
    }

    @Test("an observer disposed during a delivery receives nothing more, even the current event")
    func disposeDuringDelivery() {
        let subject = PublishSubject<Int>()
        var second: (any Disposable)?
        var received: [Int] = []
        _ = subject.subscribe(onNext: { _ in second?.dispose() })
        second = subject.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        #expect(received.isEmpty)
        #expect(subject.hasObservers)
    }
}
