extension Observable where Element: Sendable {
    /// An observable running `work` in a Swift `Task` for each subscriber, and delivering
    /// its result (one element then completion, or the error) on `scheduler`'s thread via
    /// ``SerialScheduler/enqueue(_:)``.
    ///
    /// Disposing the subscription cancels the task; whatever the work returns afterwards is
    /// dropped. Results always arrive asynchronously, never during `subscribe`.
    public static func fromAsync(
        scheduler: any SerialScheduler,
        _ work: @escaping @Sendable () async throws -> Element
    ) -> Observable<Element> {
        Observable.make { observer in
            let sink = FromAsyncSink(observer)
            let confined = GraphConfined(sink)
            sink.task = Task {
                let result: Result<Element, any Error>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                scheduler.enqueue { confined.value.deliver(result) }
            }
            return sink
        }
    }
}

/// Delivers an async result on the graph's thread, unless disposed first.
final class FromAsyncSink<Element>: Sink<Element> {
    var task: Task<Void, Never>?

    func deliver(_ result: Result<Element, any Error>) {
        task = nil
        switch result {
        case .success(let element):
            forward(element)
            forwardCompleted()
        case .failure(let error):
            forwardError(error)
        }
    }

    override func disposeResources() {
        task?.cancel()
        task = nil
    }
}
