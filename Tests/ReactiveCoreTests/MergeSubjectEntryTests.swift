import ReactiveCore
import ReactiveTesting
import Testing

/// A `map` of a `PublishSubject` merged is the subject's own entry (MergeMapSource.swift): the
/// subject delivers to the merge's source directly, whether the map is of the subject or of its
/// `asObservable()` (Map.swift). Each test runs both, and a map over a `map { $0 }` of the
/// subject, which keeps the entry and the source apart; all must behave exactly alike.
@Suite("merge of mapped subjects, each its subject's entry")
struct MergeSubjectEntryTests {
    enum Route: CaseIterable {
        case subject, asObservable, keptApart
    }

    func mapped(_ subject: PublishSubject<Int>, route: Route, _ transform: @escaping (Int) throws -> String) -> Observable<String> {
        switch route {
        case .subject: subject.map(transform)
        case .asObservable: subject.asObservable().map(transform)
        case .keptApart: subject.map { $0 }.map(transform)
        }
    }

    /// Records what a subscription receives, and whether it ended.
    final class Received {
        var elements: [String] = []
        var error: (any Error)?
        var completed = false
    }

    /// Two subjects, `a` and `b`, merged (each mapped to its name and the element) into a
    /// subscription recording what it receives.
    struct TwoSubjects {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let received = Received()
        var subscription: (any Disposable)?

        init(route: Route, merging: (PublishSubject<Int>, PublishSubject<Int>, Route) -> Observable<String>) {
            let merged = merging(a, b, route)
            let received = received
            subscription = merged.subscribe(
                onNext: { received.elements.append($0) },
                onError: { received.error = $0 },
                onCompleted: { received.completed = true })
        }
    }

    func twoSubjects(route: Route) -> TwoSubjects {
        TwoSubjects(route: route) { a, b, route in
            .merge(mapped(a, route: route) { "a\($0)" }, mapped(b, route: route) { "b\($0)" })
        }
    }

    func subscribe(_ observable: Observable<String>, into received: Received) -> any Disposable {
        observable.subscribe(
            onNext: { received.elements.append($0) },
            onError: { received.error = $0 },
            onCompleted: { received.completed = true })
    }

    @Test("elements arrive transformed, in the order sent, from every subject", arguments: Route.allCases)
    func elements(route: Route) {
        let merged = twoSubjects(route: route)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onNext(1)
        b.onNext(2)
        a.onNext(3)
        merged.subscription?.dispose()
        #expect(received.elements == ["a1", "b2", "a3"])
        #expect(!received.completed)
    }

    @Test("disposing the merge removes it from every subject; later elements reach nobody", arguments: Route.allCases)
    func disposal(route: Route) {
        let merged = twoSubjects(route: route)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onNext(1)
        merged.subscription?.dispose()
        a.onNext(2)
        b.onNext(3)
        #expect(received.elements == ["a1"])
        #expect(!a.hasObservers)
        #expect(!b.hasObservers)
    }

    @Test("a subject that completes ends its source; the merge completes after the last", arguments: Route.allCases)
    func completion(route: Route) {
        let merged = twoSubjects(route: route)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onCompleted()
        #expect(!received.completed)
        b.onNext(1)
        b.onCompleted()
        #expect(received.elements == ["b1"])
        #expect(received.completed)
        merged.subscription?.dispose()
    }

    @Test("a subject's error fails the merge and removes it from the other subjects", arguments: Route.allCases)
    func error(route: Route) {
        let merged = twoSubjects(route: route)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onError(TestError())
        b.onNext(1)
        #expect(received.error is TestError)
        #expect(received.elements.isEmpty)
        #expect(!b.hasObservers)
        merged.subscription?.dispose()
    }

    @Test("a transform that throws fails the merge and removes it from every subject", arguments: Route.allCases)
    func throwingTransform(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let received = Received()
        let subscription = subscribe(
            .merge(
                mapped(a, route: route) { value in
                    if value == 2 { throw TestError() }
                    return "a\(value)"
                },
                mapped(b, route: route) { "b\($0)" }),
            into: received)
        a.onNext(1)
        a.onNext(2)
        a.onNext(3)
        #expect(received.elements == ["a1"])
        #expect(received.error is TestError)
        #expect(!a.hasObservers)
        #expect(!b.hasObservers)
        subscription.dispose()
    }

    @Test("a subject that already completed ends its source at once", arguments: Route.allCases)
    func alreadyCompleted(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        a.onCompleted()
        let received = Received()
        let subscription = subscribe(
            .merge(mapped(a, route: route) { "a\($0)" }, mapped(b, route: route) { "b\($0)" }), into: received)
        b.onNext(1)
        b.onCompleted()
        #expect(received.elements == ["b1"])
        #expect(received.completed)
        subscription.dispose()
    }

    @Test("one subject in two merges, and twice in one, delivers to each entry in subscription order",
          arguments: Route.allCases)
    func sharedSubject(route: Route) {
        let subject = PublishSubject<Int>()
        let first = Received()
        let second = Received()
        let one = subscribe(
            .merge(mapped(subject, route: route) { "x\($0)" }, mapped(subject, route: route) { "y\($0)" }),
            into: first)
        let two = subscribe(.merge(mapped(subject, route: route) { "z\($0)" }, .never()), into: second)
        subject.onNext(1)
        one.dispose()
        subject.onNext(2)
        #expect(first.elements == ["x1", "y1"])
        #expect(second.elements == ["z1", "z2"])
        two.dispose()
        #expect(!subject.hasObservers)
    }

    @Test("an element the observer sends re-entrantly to the subject arrives after the one being delivered",
          arguments: Route.allCases)
    func reentrantSend(route: Route) {
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = Observable.merge(mapped(subject, route: route) { "s\($0)" }, .never())
            .subscribe(onNext: { value in
                received.append(value)
                if value == "s1" { subject.onNext(2) }
            })
        subject.onNext(1)
        subscription.dispose()
        #expect(received == ["s1", "s2"])
    }

    @Test("disposing the merge from inside a transform drops that element and every later one",
          arguments: Route.allCases)
    func disposedByTransform(route: Route) {
        let subject = PublishSubject<Int>()
        var subscription: (any Disposable)?
        var received: [String] = []
        subscription = Observable.merge(
            mapped(subject, route: route) { value in
                if value == 2 { subscription?.dispose() }
                return "s\(value)"
            },
            .never()
        ).subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(received == ["s1"])
        #expect(!subject.hasObservers)
    }

    @Test("a subject released while merged lets the merge go on; disposing it still ends cleanly",
          arguments: Route.allCases)
    func subjectReleased(route: Route) {
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let received = Received()
        let subscription = subscribe(
            .merge(mapped(subject ?? PublishSubject(), route: route) { "a\($0)" }, mapped(other, route: route) { "b\($0)" }),
            into: received)
        subject?.onNext(1)
        subject = nil
        other.onNext(2)
        subscription.dispose()
        other.onNext(3)
        #expect(received.elements == ["a1", "b2"])
        #expect(!other.hasObservers)
    }

    /// How a replaying subject is mapped into a merge.
    enum ReplayRoute: CaseIterable {
        case subject, asObservable
    }

    @Test("a merged map of a behavior subject receives its current value first, then what follows",
          arguments: ReplayRoute.allCases)
    func behaviorSubjectReplays(route: ReplayRoute) {
        let a = BehaviorSubject(value: 1)
        let b = PublishSubject<Int>()
        let mappedA = switch route {
        case .subject: a.map { "a\($0)" }
        case .asObservable: a.asObservable().map { "a\($0)" }
        }
        let received = Received()
        let subscription = subscribe(.merge(mappedA, b.map { "b\($0)" }), into: received)
        b.onNext(2)
        a.onNext(3)
        subscription.dispose()
        a.onNext(4)
        #expect(received.elements == ["a1", "b2", "a3"])
        #expect(!a.hasObservers)
    }

    @Test("a merged map of a replay subject receives the elements it keeps first, then what follows",
          arguments: ReplayRoute.allCases)
    func replaySubjectReplays(route: ReplayRoute) {
        let a = ReplaySubject<Int>.create(bufferSize: 2)
        a.onNext(1)
        a.onNext(2)
        a.onNext(3)
        let b = PublishSubject<Int>()
        let mappedA = switch route {
        case .subject: a.map { "a\($0)" }
        case .asObservable: a.asObservable().map { "a\($0)" }
        }
        let received = Received()
        let subscription = subscribe(.merge(b.map { "b\($0)" }, mappedA), into: received)
        b.onNext(4)
        a.onNext(5)
        subscription.dispose()
        #expect(received.elements == ["a2", "a3", "b4", "a5"])
        #expect(!a.hasObservers)
    }

    @Test("a merged map of a subject that already failed fails the merge at once", arguments: Route.allCases)
    func alreadyFailed(route: Route) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        a.onError(TestError(code: 7))
        let received = Received()
        let subscription = subscribe(
            .merge(mapped(b, route: route) { "b\($0)" }, mapped(a, route: route) { "a\($0)" }), into: received)
        b.onNext(1)
        #expect(received.elements.isEmpty)
        #expect(received.error as? TestError == TestError(code: 7))
        #expect(!b.hasObservers)
        subscription.dispose()
    }
}
