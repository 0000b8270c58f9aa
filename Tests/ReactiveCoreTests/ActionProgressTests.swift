import ReactiveCore
import ReactiveTesting
import Testing

/// Progress reported by an action's work, on virtual time.
@Suite("Action progress")
struct ActionProgressTests {
    let scheduler = TestScheduler()

    /// Work reporting `steps` progress values 10 ticks apart (out of `steps`), then emitting
    /// `input` and completing 10 ticks after the last.
    private func steppedWork(steps: Int) -> Action<Int, Int>.ReportingWorkFactory {
        { [scheduler] input, reporter in
            Observable.create { observer in
                let composite = CompositeDisposable()
                for step in 1...steps {
                    _ = composite.insert(scheduler.schedule(after: .milliseconds(10 * step)) {
                        reporter.report(completed: Double(step), total: Double(steps), message: "step \(step)")
                    })
                }
                _ = composite.insert(scheduler.schedule(after: .milliseconds(10 * steps + 10)) {
                    observer.onNext(input)
                    observer.onCompleted()
                })
                return composite
            }
        }
    }

    @Test("each report reaches progress and the execution's onProgress, before its element and end")
    func progressComesBeforeTheResult() {
        let action = Action<Int, Int>(reportingWork: steppedWork(steps: 3))
        let progress = scheduler.createObserver(ActionProgress.self)
        let log = Log()
        _ = action.progress.subscribe(progress)
        scheduler.scheduleAt(100) {
            _ = action.execute(7, onProgress: { log.append("progress \($0.completed)") })
                .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        }
        scheduler.start()
        #expect(progress.events == [
            .next(110, ActionProgress(completed: 1, total: 3, message: "step 1")),
            .next(120, ActionProgress(completed: 2, total: 3, message: "step 2")),
            .next(130, ActionProgress(completed: 3, total: 3, message: "step 3")),
        ])
        #expect(log.entries == ["progress 1.0", "progress 2.0", "progress 3.0", "next 7", "completed"])
        #expect(progress.values.last?.fraction == 1)
    }

    @Test("completed never decreases: a smaller report is raised to the last one")
    func completedNeverDecreases() {
        var kept: ActionProgressReporter?
        let action = Action<Int, Int>(reportingWork: { _, reporter in
            kept = reporter
            return .never()
        })
        var seen: [Double] = []
        action.execute(1, onProgress: { seen.append($0.completed) })
        kept?.report(completed: 5)
        kept?.report(completed: 3, message: "retrying")
        kept?.report(completed: 8)
        #expect(seen == [5, 5, 8])
    }

    @Test("reports after the execution ended, or after it was cancelled, are dropped")
    func noProgressAfterTheEnd() {
        var kept: [ActionProgressReporter] = []
        let action = Action<Int, Int>(strategy: .latest, reportingWork: { input, reporter in
            kept.append(reporter)
            return input == 0 ? .just(0) : .never()
        })
        let progress = scheduler.createObserver(ActionProgress.self)
        _ = action.progress.subscribe(progress)
        action.execute(0)
        kept[0].report(completed: 1)
        let cancelled = action.execute(1).subscribe(onNext: { _ in })
        cancelled.dispose()
        kept[1].report(completed: 1)
        action.execute(2)
        action.execute(3)
        kept[2].report(completed: 1)
        kept[3].report(completed: 2)
        #expect(progress.values == [ActionProgress(completed: 2)])
    }

    @Test("progress is sanitized: negative or non-finite values cannot reach the wire")
    func progressIsSanitized() {
        #expect(ActionProgress(completed: -1, total: .infinity) == ActionProgress(completed: 0))
        #expect(ActionProgress(completed: .nan, total: -3).completed == 0)
        #expect(ActionProgress(completed: 2, total: 0).fraction == nil)
        #expect(ActionProgress(completed: 4, total: 2).fraction == 1)
    }

    @Test("async work's reports arrive through the scheduler before its result, none after")
    func asyncReportsComeBeforeTheResult() async {
        let action = Action<Int, Int>(strategy: .exclusive, scheduler: scheduler) { input, progress in
            progress.report(completed: 1, total: 2)
            progress.report(completed: 2, total: 2)
            return input * 10
        }
        let log = Log()
        _ = action.execute(4, onProgress: { log.append("\($0.completed)") })
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        #expect(await scheduler.waitForEnqueued(count: 3))
        scheduler.drainEnqueued()
        #expect(log.entries == ["1.0", "2.0", "next 40", "completed"])
    }

    @Test("concurrent executions each hear only their own progress")
    func concurrentExecutionsKeepTheirProgressApart() {
        var kept: [ActionProgressReporter] = []
        let action = Action<Int, Int>(strategy: .concurrent, reportingWork: { _, reporter in
            kept.append(reporter)
            return .never()
        })
        var first: [Double] = []
        var second: [Double] = []
        action.execute(1, onProgress: { first.append($0.completed) })
        action.execute(2, onProgress: { second.append($0.completed) })
        kept[1].report(completed: 9)
        kept[0].report(completed: 1)
        #expect(first == [1])
        #expect(second == [9])
    }
}
