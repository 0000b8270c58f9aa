import ReactiveCore
import ReactiveTesting
import Testing

/// An action's `enabled` and `executionObservables` are made together on the first read of
/// either (ActionRareSubjects.swift); neither may depend on which came first.
@Suite("Action's enabled and executionObservables")
struct ActionRareSubjectsTests {
    @Test("executionObservables read first, then enabled: both report every execution", arguments: [false, true])
    func eitherOrder(enabledFirst: Bool) {
        let work = PublishSubject<Int>()
        let action = Action<Int, Int> { _ in work.asObservable() }
        var enabled: [Bool] = []
        var executions = 0
        if enabledFirst {
            _ = action.enabled.subscribe(onNext: { enabled.append($0) })
            _ = action.executionObservables.subscribe(onNext: { _ in executions += 1 })
        } else {
            _ = action.executionObservables.subscribe(onNext: { _ in executions += 1 })
            _ = action.enabled.subscribe(onNext: { enabled.append($0) })
        }
        action.execute(1)
        work.onCompleted()
        #expect(enabled == [true, false, true])
        #expect(executions == 1)
    }

    @Test("every read of enabled observes the same changes, each starting from the current value")
    func enabledReadTwice() {
        let work = PublishSubject<Int>()
        let action = Action<Int, Int> { _ in work.asObservable() }
        var first: [Bool] = []
        var second: [Bool] = []
        _ = action.enabled.subscribe(onNext: { first.append($0) })
        action.execute(1)
        _ = action.enabled.subscribe(onNext: { second.append($0) })
        work.onNext(2)
        work.onCompleted()
        #expect(first == [true, false, true])
        #expect(second == [false, true])
    }

    @Test("an action nobody reads enabled or executionObservables of runs each execution and is enabled after it")
    func unobserved() {
        let action = Action<Int, Int> { input in .just(input * 10) }
        var elements: [Int] = []
        _ = action.elements.subscribe(onNext: { elements.append($0) })
        action.execute(1)
        action.execute(2)
        #expect(elements == [10, 20])
        #expect(action.isEnabled)
    }
}
