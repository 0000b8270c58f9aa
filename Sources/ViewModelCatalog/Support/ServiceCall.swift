import ReactiveCore

/// How the catalog's view models call their `async` services: after an optional simulated
/// latency measured on the instance's own scheduler, then as a Swift `Task` whose result
/// hops back onto that scheduler.
///
/// The latency runs on the scheduler rather than inside the service (`Task.sleep`) so that
/// tests on a `TestScheduler` see it in virtual time: "isLoading is true from 0 to 500" is
/// an exact assertion, not a race. Disposing the call during the latency cancels the timer;
/// disposing it afterwards cancels the task.
enum ServiceCall {
    /// An observable that waits `latency`, then runs `work` once per subscription and
    /// delivers its single result (or error) on `scheduler`.
    static func run<Result: Sendable>(
        after latency: Duration,
        on scheduler: any SerialScheduler,
        _ work: @escaping @Sendable () async throws -> Result
    ) -> Observable<Result> {
        let call = Observable.fromAsync(scheduler: scheduler, work)
        guard latency > .zero else { return call }
        return Observable.just(()).delay(latency, scheduler: scheduler).flatMap { call }
    }
}
