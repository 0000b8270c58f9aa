// The reactive core's throughput against hand-written closures doing the same work.
//
// Both chains compute the same thing for every input i: x = (i >> 1) * 3, keep x if even,
// drop x if equal to the previous kept x, add the rest to a sum. The reactive chain is
// PublishSubject → map → filter → distinctUntilChanged → subscribe(onNext:). The baseline is
// the same four stages as plain Swift closures, each calling the next, assembled at run time
// (built by a non-inlined function, as a chain of operators is), so the optimizer cannot fold
// them into one loop body. Figures are medians of several rounds; the ratio is what matters.

import ReactiveCore

func runReactiveBenchmarks() {
    let events = 4_000_000
    let rounds = 5
    var reactiveTimes: [Duration] = []
    var plainTimes: [Duration] = []
    var reactiveSum = 0
    var plainSum = 0
    for _ in 0..<rounds {
        let clock = ContinuousClock()
        plainTimes.append(clock.measure { plainSum = runPlainChain(events: events) })
        reactiveTimes.append(clock.measure { reactiveSum = runReactiveChain(events: events) })
    }
    precondition(reactiveSum == plainSum, "the two chains disagree: \(reactiveSum) vs \(plainSum)")
    let reactive = median(reactiveTimes)
    let plain = median(plainTimes)
    let reactiveRate = Double(events) / seconds(reactive)
    let plainRate = Double(events) / seconds(plain)
    print("subject→map→filter→distinctUntilChanged→subscriber: \(format(reactiveRate)) events/s (\(nanosPerEvent(reactive, events)) ns/event)")
    print("plain closures, same work:                            \(format(plainRate)) events/s (\(nanosPerEvent(plain, events)) ns/event)")
    print("ratio (reactive time / plain time): \(formatRatio(seconds(reactive) / seconds(plain)))x  [aim: within 5x]")
}

private func runReactiveChain(events: Int) -> Int {
    let subject = PublishSubject<Int>()
    var sum = 0
    let subscription = subject
        .map { $0 &* 3 }
        .filter { $0 % 2 == 0 }
        .distinctUntilChanged()
        .subscribe(onNext: { sum &+= $0 })
    for i in 0..<events {
        subject.on(.next(i >> 1))
    }
    subscription.dispose()
    return sum
}

/// A box so the plain chain's last stage has somewhere to accumulate.
private final class Accumulator {
    var sum = 0
}

@inline(never)
private func makePlainChain(into accumulator: Accumulator) -> (Int) -> Void {
    var previous: Int?
    let sink: (Int) -> Void = { accumulator.sum &+= $0 }
    let distinct: (Int) -> Void = { value in
        if previous == value { return }
        previous = value
        sink(value)
    }
    let filter: (Int) -> Void = { value in
        if value % 2 == 0 { distinct(value) }
    }
    let map: (Int) -> Void = { value in filter(value &* 3) }
    return map
}

private func runPlainChain(events: Int) -> Int {
    let accumulator = Accumulator()
    let chain = makePlainChain(into: accumulator)
    for i in 0..<events {
        chain(i >> 1)
    }
    return accumulator.sum
}

private func nanosPerEvent(_ duration: Duration, _ events: Int) -> String {
    formatRatio(seconds(duration) * 1e9 / Double(events))
}

private func format(_ rate: Double) -> String {
    let millions = (rate / 1e5).rounded() / 10
    return "\(millions) M"
}

private func formatRatio(_ value: Double) -> String {
    "\((value * 100).rounded() / 100)"
}
