import ReactiveCore
import ReactiveTesting
import Testing

@Suite("debug")
struct DebugTests {
    let scheduler = TestScheduler()

    @Test("debug prints the subscription, every event and the disposal, and forwards the events")
    func printsLifecycle() {
        let log = Log()
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let observer = scheduler.start { source.debug("source", printer: log.append) }
        #expect(observer.events == [.next(210, 1), .completed(220)])
        #expect(log.entries == ["source -> subscribed", "source -> Event next(1)", "source -> Event completed", "source -> isDisposed"])
        #expect(source.subscriptions == [Subscription(200, 220)])
    }

    @Test("debug trims long events and names itself after its call site by default")
    func trimsAndNames() {
        let log = Log()
        let subscription = Observable.just(String(repeating: "x", count: 60))
            .debug(trimOutput: true, printer: log.append)
            .subscribe()
        subscription.dispose()
        #expect(log.entries.count == 4)
        #expect(log.entries.first?.hasPrefix("ReactiveCoreTests/DebugTests.swift:") == true)
        // "next(" and 32 of the 60 characters make 37, then "...": 40 in all.
        #expect(log.entries[1].hasSuffix("-> Event next(" + String(repeating: "x", count: 32) + "...") == true)
    }

    @Test("disposing prints isDisposed once")
    func disposal() {
        let log = Log()
        let source = scheduler.createHotObservable([.next(210, 1)])
        _ = scheduler.start(disposed: 300) { source.debug("s", printer: log.append) }
        #expect(log.entries == ["s -> subscribed", "s -> Event next(1)", "s -> isDisposed"])
    }
}
