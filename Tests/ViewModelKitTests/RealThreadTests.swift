import Dispatch
import JSONCore
import ReactiveCore
import Testing
import ViewModelKit

/// Carries a value to another thread in a test. Safe here because the test hands the host to
/// the queue and never touches it again itself: the queue is its only thread from then on.
struct Handed<Value>: @unchecked Sendable {
    let value: Value
}

@Suite("A host on a real serial queue")
struct RealThreadTests {
    @Test("async service results come back on the host's queue, and the reply follows the outputs")
    func resultsReturnOnTheHostsQueue() async throws {
        let queue = DispatchQueue(label: "vmd.test.host")
        let scheduler = DispatchQueueScheduler(queue: queue)
        var registry = ViewModelRegistry()
        try registry.register(Login.self, services: DemoAuth())
        let host = Handed(value: ViewModelHost(registry: registry, scheduler: scheduler))

        let lines: [String] = await withCheckedContinuation { continuation in
            queue.async {
                var lines: [String] = []
                // Everything below runs on `queue`, so this flag needs no lock.
                var answered = false
                func answer(_ result: [String]) {
                    guard !answered else { return }
                    answered = true
                    continuation.resume(returning: result)
                }
                // A bounded wait: the test fails instead of hanging if no reply comes. Generous,
                // because the service's Task needs a thread of the cooperative pool (two on
                // these machines), which blocking tests running beside this one may hold for
                // seconds; a reply that comes at all comes in order.
                scheduler.schedule(after: .seconds(60)) { answer(lines + ["timed out"]) }
                do {
                    let login = try host.value.create(type: "Login")
                    for output in ["isLoading", "loginSuccess"] {
                        _ = try login.observe(output: output) { value in
                            dispatchPrecondition(condition: .onQueue(queue))
                            lines.append("\(output) \(value)")
                        }
                    }
                    try login.send(input: "email", value: "demo@example.com")
                    try login.send(input: "password", value: "secret")
                    _ = try login.execute(action: "submit") { result in
                        dispatchPrecondition(condition: .onQueue(queue))
                        lines.append("reply \((try? result.get()) ?? "failed")")
                        answer(lines)
                    }
                } catch {
                    answer(["error \(error)"])
                }
            }
        }
        #expect(lines == ["isLoading true", #"loginSuccess "demo@example.com""#, "isLoading false", #"reply "demo@example.com""#])
    }
}
