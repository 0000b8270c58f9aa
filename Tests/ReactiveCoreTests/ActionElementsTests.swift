import ReactiveCore
import ReactiveTesting
import Testing

/// What an observer of an action's `elements` receives must not depend on when `elements`
/// was read: before any execution, between executions, or while an element is delivered.
@Suite("Action's elements, whenever read")
struct ActionElementsTests {
    @Test("elements read only after two executions deliver the later executions' elements, and the earlier ones ran in full")
    func readLate() {
        let action = Action<Int, Int> { input in .just(input * 10) }
        var replies: [Int] = []
        _ = action.execute(1).subscribe(onNext: { replies.append($0) })
        _ = action.execute(2).subscribe(onNext: { replies.append($0) })
        var elements: [Int] = []
        _ = action.elements.subscribe(onNext: { elements.append($0) })
        action.execute(3)
        #expect(replies == [10, 20])
        #expect(elements == [30])
        #expect(action.isEnabled)
    }

    @Test("elements read for the first time by an execution's observer, on an element, receive that element and the next")
    func readWhileDelivering() {
        let work = PublishSubject<Int>()
        let action = Action<Int, Int> { _ in work.asObservable() }
        var elements: [Int] = []
        var subscribed = false
        _ = action.execute(1).subscribe(onNext: { _ in
            guard !subscribed else { return }
            subscribed = true
            _ = action.elements.subscribe(onNext: { elements.append($0) })
        })
        work.onNext(1)
        work.onNext(2)
        work.onCompleted()
        #expect(elements == [1, 2])
    }

    @Test("every read of elements observes the same elements, each from its subscription on")
    func readTwice() {
        let work = PublishSubject<Int>()
        let action = Action<Int, Int> { _ in work.asObservable() }
        var first: [Int] = []
        var second: [Int] = []
        _ = action.elements.subscribe(onNext: { first.append($0) })
        action.execute(1)
        work.onNext(1)
        _ = action.elements.subscribe(onNext: { second.append($0) })
        work.onNext(2)
        work.onCompleted()
        #expect(first == [1, 2])
        #expect(second == [2])
    }

    @Test("elements merged and mapped before any execution receive every element, as a view model's chain does")
    func mergedBeforeExecuting() {
        let action = Action<Int, Int> { input in .just(input) }
        let other = PublishSubject<Int>()
        var merged: [Int] = []
        _ = Observable.merge(action.elements.map { $0 * 2 }, other.map { $0 + 100 })
            .subscribe(onNext: { merged.append($0) })
        action.execute(1)
        other.onNext(1)
        action.execute(2)
        #expect(merged == [2, 101, 4])
    }
}
