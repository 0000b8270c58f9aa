import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit

/// Records a Login's outputs and replies in one log, in the order they happen.
final class Transcript {
    var lines: [String] = []
    let bag = DisposeBag()

    func watch(_ instance: ViewModelInstance) throws {
        for output in instance.outputNames() {
            try instance.observe(output: output) { [unowned self] value in lines.append("\(output) \(value)") }.disposed(by: bag)
        }
    }

    func reply(_ result: Result<JSONValue, ViewModelError>) {
        switch result {
        case .success(let value): lines.append("reply \(value)")
        case .failure(let error): lines.append("error \(error.name)")
        }
    }
}

/// A Login with valid credentials typed in.
func typedLogin(_ host: ViewModelHost, password: String = "secret") throws -> ViewModelInstance {
    let login = try host.create(type: "Login")
    try login.send(input: "email", value: "demo@example.com")
    try login.send(input: "password", value: .string(password))
    return login
}

@Suite("Async actions through the host, on virtual time")
struct ActionTests {
    @Test("a successful submit: isLoading true, the element, isLoading false, then the reply")
    func successfulSubmit() async throws {
        let (host, scheduler) = try makeHost()
        let login = try typedLogin(host)
        let transcript = Transcript()
        try transcript.watch(login)
        _ = try login.execute(action: "submit") { transcript.reply($0) }
        #expect(transcript.lines == ["isLoading true"])
        #expect(try login.currentValue(output: "isLoading") == true)

        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(transcript.lines == [
            "isLoading true", #"loginSuccess "demo@example.com""#, "isLoading false", #"reply "demo@example.com""#,
        ])
    }

    @Test("a failed submit answers actionFailed with the service's message and data")
    func failedSubmit() async throws {
        let (host, scheduler) = try makeHost()
        let login = try typedLogin(host, password: "wrong!")
        let transcript = Transcript()
        try transcript.watch(login)
        var result: Result<JSONValue, ViewModelError>?
        _ = try login.execute(action: "submit") { result = $0 }
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        let expected = ViewModelError.actionFailed(
            instance: "login-1", action: "submit", message: "Wrong email or password.", data: ["reason": "badCredentials"])
        #expect(result.map { if case .failure(let error) = $0 { error == expected } else { false } } == true)
        // Action's rule, as on success: the outcome first, then the action is idle again.
        #expect(transcript.lines == ["isLoading true", #"loginFailure "Wrong email or password.""#, "isLoading false"])
    }

    @Test("a second submit while the first runs is not enabled; the first goes on")
    func notEnabledWhileExecuting() throws {
        let auth = HangingAuth()
        let (host, _) = try makeHost(auth: auth)
        let login = try typedLogin(host)
        var first: Result<JSONValue, ViewModelError>?
        var second: Result<JSONValue, ViewModelError>?
        let running = try login.execute(action: "submit") { first = $0 }
        _ = try login.execute(action: "submit") { second = $0 }
        #expect(first == nil)
        #expect(second.map { if case .failure(.actionNotEnabled("login-1", "submit")) = $0 { true } else { false } } == true)
        running.dispose()
    }

    @Test("disposing an execution cancels its task, re-enables the action and never answers")
    func cancelByDispose() async throws {
        let auth = HangingAuth()
        let (host, scheduler) = try makeHost(auth: auth)
        let login = try typedLogin(host)
        let transcript = Transcript()
        try transcript.watch(login)
        let running = try login.execute(action: "submit") { transcript.reply($0) }
        running.dispose()
        #expect(transcript.lines == ["isLoading true", "isLoading false"])

        // The task notices the cancellation, and its (dropped) result hops back.
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(auth.wasCancelled)
        #expect(transcript.lines == ["isLoading true", "isLoading false"])

        // Enabled again: a new execution starts instead of being refused.
        let again = try login.execute(action: "submit") { transcript.reply($0) }
        #expect(transcript.lines.last == "isLoading true")
        again.dispose()
    }

    @Test("destroying an instance cancels its executions and answers them unknownInstance")
    func destroyAnswersPendingExecutions() async throws {
        let auth = HangingAuth()
        let (host, scheduler) = try makeHost(auth: auth)
        let login = try typedLogin(host)
        var result: Result<JSONValue, ViewModelError>?
        _ = try login.execute(action: "submit") { result = $0 }
        try host.destroy("login-1")
        #expect(result.map { if case .failure(.unknownInstance("login-1")) = $0 { true } else { false } } == true)
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(auth.wasCancelled)
    }

    @Test("one instance awaiting a service blocks no other instance")
    func awaitingBlocksNothing() throws {
        let (host, _) = try makeHost(auth: HangingAuth())
        let login = try typedLogin(host)
        let running = try login.execute(action: "submit") { _ in }
        let counter = try host.create(type: "Counter")
        try counter.send(input: "increment", value: 3)
        #expect(try counter.currentValue(output: "count") == 3)
        try login.send(input: "email", value: "other@example.com")
        #expect(try login.currentValue(output: "isLoading") == true)
        running.dispose()
    }
}
