import ReactiveCore
import ReactiveTesting
import Testing

/// A `map` of a `PublishSubject` merged is the subject's own entry (MergeMapSource.swift): the
/// subject delivers to the merge's source directly. Each test runs it that way (`direct` true)
/// and through `asObservable()`, which subscribes the map's source with an erased observer and
/// so keeps the entry and the source apart; both must behave exactly alike.
@Suite("merge of mapped subjects, each its subject's entry")
struct MergeSubjectEntryTests {
    func mapped(_ subject: PublishSubject<Int>, direct: Bool, _ transform: @escaping (Int) throws -> String) -> Observable<String> {
        direct ? subject.map(transform) : subject.asObservable().map(transform)
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

        init(direct: Bool, merging: (PublishSubject<Int>, PublishSubject<Int>, Bool) -> Observable<String>) {
            let merged = merging(a, b, direct)
            let received = received
            subscription = merged.subscribe(
                onNext: { received.elements.append($0) },
                onError: { received.error = $0 },
                onCompleted: { received.completed = true })
        }
    }

    func twoSubjects(direct: Bool) -> TwoSubjects {
        TwoSubjects(direct: direct) { a, b, direct in
            .merge(mapped(a, direct: direct) { "a\($0)" }, mapped(b, direct: direct) { "b\($0)" })
        }
    }

    func subscribe(_ observable: Observable<String>, into received: Received) -> any Disposable {
        observable.subscribe(
            onNext: { received.elements.append($0) },
            onError: { received.error = $0 },
            onCompleted: { received.completed = true })
    }

    @Test("elements arrive transformed, in the order sent, from every subject", arguments: [true, false])
    func elements(direct: Bool) {
        let merged = twoSubjects(direct: direct)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onNext(1)
        b.onNext(2)
        a.onNext(3)
        merged.subscription?.dispose()
        #expect(received.elements == ["a1", "b2", "a3"])
        #expect(!received.completed)
    }

    @Test("disposing the merge removes it from every subject; later elements reach nobody", arguments: [true, false])
    func disposal(direct: Bool) {
        let merged = twoSubjects(direct: direct)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onNext(1)
        merged.subscription?.dispose()
        a.onNext(2)
        b.onNext(3)
        #expect(received.elements == ["a1"])
        #expect(!a.hasObservers)
        #expect(!b.hasObservers)
    }

    @Test("a subject that completes ends its source; the merge completes after the last", arguments: [true, false])
    func completion(direct: Bool) {
        let merged = twoSubjects(direct: direct)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onCompleted()
        #expect(!received.completed)
        b.onNext(1)
        b.onCompleted()
        #expect(received.elements == ["b1"])
        #expect(received.completed)
        merged.subscription?.dispose()
    }

    @Test("a subject's error fails the merge and removes it from the other subjects", arguments: [true, false])
    func error(direct: Bool) {
        let merged = twoSubjects(direct: direct)
        let (a, b, received) = (merged.a, merged.b, merged.received)
        a.onError(TestError())
        b.onNext(1)
        #expect(received.error is TestError)
        #expect(received.elements.isEmpty)
        #expect(!b.hasObservers)
        merged.subscription?.dispose()
    }

    @Test("a transform that throws fails the merge and removes it from every subject", arguments: [true, false])
    func throwingTransform(direct: Bool) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let received = Received()
        let subscription = subscribe(
            .merge(
                mapped(a, direct: direct) { value in
                    if value == 2 { throw TestError() }
                    return "a\(value)"
                },
                mapped(b, direct: direct) { "b\($0)" }),
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

    @Test("a subject that already completed ends its source at once", arguments: [true, false])
    func alreadyCompleted(direct: Bool) {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        a.onCompleted()
        let received = Received()
        let subscription = subscribe(
            .merge(mapped(a, direct: direct) { "a\($0)" }, mapped(b, direct: direct) { "b\($0)" }), into: received)
        b.onNext(1)
        b.onCompleted()
        #expect(received.elements == ["b1"])
        #expect(received.completed)
        subscription.dispose()
    }

    @Test("one subject in two merges, and twice in one, delivers to each entry in subscription order",
          arguments: [true, false])
    func sharedSubject(direct: Bool) {
        let subject = PublishSubject<Int>()
        let first = Received()
        let second = Received()
        let one = subscribe(
            .merge(mapped(subject, direct: direct) { "x\($0)" }, mapped(subject, direct: direct) { "y\($0)" }),
            into: first)
        let two = subscribe(.merge(mapped(subject, direct: direct) { "z\($0)" }, .never()), into: second)
        subject.onNext(1)
        one.dispose()
        subject.onNext(2)
        #expect(first.elements == ["x1", "y1"])
        #expect(second.elements == ["z1", "z2"])
        two.dispose()
        #expect(!subject.hasObservers)
    }

    @Test("an element the observer sends re-entrantly to the subject arrives after the one being delivered",
          arguments: [true, false])
    func reentrantSend(direct: Bool) {
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = Observable.merge(mapped(subject, direct: direct) { "s\($0)" }, .never())
            .subscribe(onNext: { value in
                received.append(value)
                if value == "s1" { subject.onNext(2) }
            })
        subject.onNext(1)
        subscription.dispose()
        #expect(received == ["s1", "s2"])
    }

    @Test("disposing the merge from inside a transform drops that element and every later one",
          arguments: [true, false])
    func disposedByTransform(direct: Bool) {
        let subject = PublishSubject<Int>()
        var subscription: (any Disposable)?
        var received: [String] = []
        subscription = Observable.merge(
            mapped(subject, direct: direct) { value in
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
          arguments: [true, false])
    func subjectReleased(direct: Bool) {
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let received = Received()
        let subscription = subscribe(
            .merge(mapped(subject ?? PublishSubject(), direct: direct) { "a\($0)" }, mapped(other, direct: direct) { "b\($0)" }),
            into: received)
        subject?.onNext(1)
        subject = nil
        other.onNext(2)
        subscription.dispose()
        other.onNext(3)
        #expect(received.elements == ["a1", "b2"])
        #expect(!other.hasObservers)
    }
}
