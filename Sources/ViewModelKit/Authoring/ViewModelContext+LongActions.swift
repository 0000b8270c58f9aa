import ReactiveCore

/// Actions whose work takes long enough to matter: an execution strategy (what a second
/// execution does while one runs) and progress reported from inside the work.
///
/// ```swift
/// let upload = context.action(strategy: .queue) { (file: String, progress) in
///     for chunk in 1...10 {
///         try await storage.put(file, chunk: chunk)
///         progress.report(completed: Double(chunk), total: 10, message: "uploading \(file)")
///     }
///     return file
/// }
/// let search = context.action(strategy: .latest, after: .milliseconds(200)) { (query: String) in
///     try await index.search(query)
/// }
/// ```
///
/// Both run their work as ``ViewModelContext/call(after:timeout:file:line:_:)`` does, so
/// `latency` and `timeout` behave as there (virtual time under test) and the testing
/// harness's `settle()` waits for them, naming them by `file` and `line`. Progress reported before the work returns
/// reaches observers (and `vm.progress`) before its result; reports after the execution
/// ended, was cancelled or was superseded are dropped.
extension ViewModelContext {
    /// An `Action` whose `async` work runs with `strategy` and reports its progress through
    /// the `AsyncProgressReporter` it is given (callable from any thread).
    public func action<Input: Sendable, Element: Sendable>(
        strategy: ActionStrategy,
        enabledIf: some ObservableConvertibleType<Bool> = Observable.just(true),
        after latency: Duration = .zero,
        timeout: Duration? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (Input, AsyncProgressReporter) async throws -> Element
    ) -> Action<Input, Element> {
        let label = "context.action at \(file):\(line)"
        let (scheduler, serviceClock) = (scheduler, serviceClock)
        return Action(strategy: strategy, enabledIf: enabledIf.asObservable()) { input, reporter in
            let progress = AsyncProgressReporter(scheduler: scheduler, reporter: reporter)
            return Self.call(named: label, on: scheduler, serviceClock, after: latency, timeout: timeout) {
                try await work(input, progress)
            }
        }
    }

    /// An `Action` whose `async` work runs with `strategy` and reports no progress.
    public func action<Input: Sendable, Element: Sendable>(
        strategy: ActionStrategy,
        enabledIf: some ObservableConvertibleType<Bool> = Observable.just(true),
        after latency: Duration = .zero,
        timeout: Duration? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (Input) async throws -> Element
    ) -> Action<Input, Element> {
        let label = "context.action at \(file):\(line)"
        let (scheduler, serviceClock) = (scheduler, serviceClock)
        return Action(strategy: strategy, enabledIf: enabledIf.asObservable()) { input in
            Self.call(named: label, on: scheduler, serviceClock, after: latency, timeout: timeout) { try await work(input) }
        }
    }
}
