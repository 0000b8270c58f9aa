import ReactiveCore
import ReactiveTesting
import Testing

@Suite("timer and interval on virtual time")
struct TimerTests {
    let scheduler = TestScheduler()

    @Test("timer emits 0 after its due time, then completes")
    func timerOnce() {
        let observer = scheduler.start { Observable<Int>.timer(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events == [.next(300, 0), .completed(300)])
    }

    @Test("a periodic timer emits after its due time, then every period")
    func periodicTimer() {
        let observer = scheduler.start(disposed: 560) {
            Observable<Int>.timer(.milliseconds(50), period: .milliseconds(100), scheduler: scheduler)
        }
        #expect(observer.events == [.next(250, 0), .next(350, 1), .next(450, 2), .next(550, 3)])
    }

    @Test("interval counts every period from the subscription until disposed")
    func interval() {
        let observer = scheduler.start(disposed: 650) { Observable<Int>.interval(.milliseconds(100), scheduler: scheduler) }
        #expect(observer.events == [.next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3)])
    }

    @Test("disposing an interval cancels its next tick")
    func disposingCancels() {
        var ticks = 0
        let subscription = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler).subscribe(onNext: { _ in ticks += 1 })
        scheduler.advance(to: 25)
        subscription.dispose()
        scheduler.advance(to: 100)
        #expect(ticks == 2)
    }
}
