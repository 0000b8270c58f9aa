import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

/// The demo service, counting its calls.
private struct CountingAuth: AuthService {
    let calls = CallCounter()

    func signIn(email: String, password: String) async throws -> String {
        calls.increment()
        return try await DemoAuthService().signIn(email: email, password: password)
    }
}

/// Fails like a network would, with an error that is not presentable.
private struct BrokenAuth: AuthService {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "auth.example.com is unreachable" }
    }

    func signIn(email: String, password: String) async throws -> String {
        throw Unreachable()
    }
}

@Suite("Login: validation, one submit at a time, loading and outcome on virtual time")
struct LoginTests {
    private func makeLogin(latencyMs: Int = 500, auth: any AuthService = DemoAuthService(), scheduler: TestScheduler) -> ViewModelHarness<Login> {
        ViewModelHarness(Login.self, args: Login.Arguments(latencyMs: latencyMs), services: auth, scheduler: scheduler)
    }

    @Test("isLoginAllowed follows the rule and publishes changes only")
    func validation() {
        let login = makeLogin(scheduler: TestScheduler())
        let allowed = login.record(\.isLoginAllowed)
        login.send(\.email, "demo")
        login.send(\.password, "secret")
        login.send(\.email, "demo@example.com")
        login.send(\.password, "secre")
        login.send(\.password, "secret!")
        login.send(\.email, "demo@example")
        #expect(allowed.values == [false, true, false, true, false])
    }

    @Test("what looks like an email address", arguments: [
        ("demo@example.com", true), ("a.b+c@mail.example.org", true), ("x@y.z", true),
        ("", false), ("demo", false), ("@example.com", false), ("demo@", false), ("demo@example", false),
        ("demo@.com", false), ("demo@example.", false), ("de mo@example.com", false), ("a@b@example.com", false),
    ])
    func emailShapes(email: String, looksValid: Bool) {
        #expect(Login.isAllowed(email: email, password: "secret") == looksValid)
    }

    @Test("the password needs six characters, counted as a person counts them")
    func passwordLength() {
        #expect(!Login.isAllowed(email: "demo@example.com", password: "12345"))
        #expect(Login.isAllowed(email: "demo@example.com", password: "123456"))
        #expect(!Login.isAllowed(email: "demo@example.com", password: "🇫🇷🇫🇷🇫🇷"))
        #expect(Login.isAllowed(email: "demo@example.com", password: "éééééé"))
    }

    @Test("submit is refused while the input is invalid, and nothing is shown as a failure")
    func refusedWhileInvalid() {
        let scheduler = TestScheduler()
        let auth = CountingAuth()
        let login = makeLogin(auth: auth, scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        let failure = login.record(\.loginFailure)
        login.send(\.email, "demo@example.com")
        let refused = login.execute(\.submit)
        scheduler.start()
        #expect(refused.error as? ActionError == .notEnabled)
        #expect(isLoading.values == [false])
        #expect(failure.values.isEmpty)
        #expect(auth.calls.value == 0)
    }

    @Test("submit shows loading for the latency, then the signed-in user")
    func happyPath() async {
        let scheduler = TestScheduler()
        let login = makeLogin(latencyMs: 500, scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        let success = login.record(\.loginSuccess)
        let failure = login.record(\.loginFailure)
        login.send(\.email, DemoAuthService.email)
        login.send(\.password, DemoAuthService.password)
        scheduler.advance(to: 100)
        let submit = login.execute(\.submit)
        scheduler.advance(to: 599)
        #expect(isLoading.events == [.next(0, false), .next(100, true)])
        scheduler.advance(to: 600)
        await login.settle()
        #expect(isLoading.events == [.next(0, false), .next(100, true), .next(600, false)])
        #expect(success.events == [.next(600, "demo@example.com")])
        #expect(failure.values.isEmpty)
        #expect(submit.values == ["demo@example.com"])
        #expect(submit.isCompleted)
    }

    @Test("wrong credentials end loading and say why in words")
    func wrongPassword() async {
        let scheduler = TestScheduler()
        let login = makeLogin(latencyMs: 0, scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        let success = login.record(\.loginSuccess)
        let failure = login.record(\.loginFailure)
        login.send(\.email, DemoAuthService.email)
        login.send(\.password, "guessed")
        let submit = login.execute(\.submit)
        await login.settle()
        #expect(isLoading.values == [false, true, false])
        #expect(failure.values == ["Wrong email or password."])
        #expect(success.values.isEmpty)
        #expect(submit.error as? ActionError == .underlyingError(ActionFailure("Wrong email or password.", data: ["reason": "badCredentials"])))
    }

    @Test("a service error that is not presentable still reaches loginFailure as text")
    func brokenService() async {
        let scheduler = TestScheduler()
        let login = makeLogin(latencyMs: 0, auth: BrokenAuth(), scheduler: scheduler)
        let failure = login.record(\.loginFailure)
        login.send(\.email, DemoAuthService.email)
        login.send(\.password, DemoAuthService.password)
        login.execute(\.submit)
        await login.settle()
        #expect(failure.values == ["auth.example.com is unreachable"])
    }

    @Test("a second submit while the first runs is not enabled; the service is called once")
    func oneAtATime() async {
        let scheduler = TestScheduler()
        let auth = CountingAuth()
        let login = makeLogin(latencyMs: 300, auth: auth, scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        let success = login.record(\.loginSuccess)
        let failure = login.record(\.loginFailure)
        login.send(\.email, DemoAuthService.email)
        login.send(\.password, DemoAuthService.password)
        let first = login.execute(\.submit)
        scheduler.advance(to: 100)
        let second = login.execute(\.submit)
        #expect(second.error as? ActionError == .notEnabled)
        scheduler.advance(to: 300)
        await login.settle()
        #expect(isLoading.events == [.next(0, false), .next(0, true), .next(300, false)])
        #expect(first.values == ["demo@example.com"])
        #expect(success.values == ["demo@example.com"])
        #expect(failure.values.isEmpty)
        #expect(auth.calls.value == 1)
        // Enabled again once the first has finished.
        let third = login.execute(\.submit)
        scheduler.advance(to: 600)
        await login.settle()
        #expect(third.values == ["demo@example.com"])
        #expect(auth.calls.value == 2)
    }

    @Test("cancelling a submit during the latency never calls the service and ends loading")
    func cancelDuringLatency() {
        let scheduler = TestScheduler()
        let auth = CountingAuth()
        let login = makeLogin(latencyMs: 500, auth: auth, scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        login.send(\.email, DemoAuthService.email)
        login.send(\.password, DemoAuthService.password)
        let execution = login.ports.submit.execute(()).subscribe(onNext: { _ in })
        scheduler.advance(to: 200)
        execution.dispose()
        scheduler.start()
        #expect(isLoading.events == [.next(0, false), .next(0, true), .next(200, false)])
        #expect(auth.calls.value == 0)
    }

    @Test("creation arguments: latencyMs defaults to 500 and the schema bounds it")
    func arguments() throws {
        #expect(try Login.Arguments(json: [:]).latencyMs == 500)
        #expect(try Login.Arguments(json: ["latencyMs": 0]).latencyMs == 0)
        let schema = try JSONSchema(Login.Arguments.jsonSchema)
        #expect(schema.isValid(["latencyMs": 600_000]))
        #expect(!schema.isValid(["latencyMs": -1]))
        #expect(!schema.isValid(["latencyMs": 600_001]))
        #expect(!schema.isValid(["latency": 5]))
    }

    @Test("vm.types describes Login completely")
    func description() throws {
        #expect(try describe(Login.self) == """
        {"name":"Login","summary":"Email and password login with a slow authentication service.",\
        "args":{"type":"object","properties":{"latencyMs":{"type":"integer","minimum":0,"maximum":600000,"default":500}},"additionalProperties":false},\
        "inputs":[\
        {"name":"email","summary":"What the user typed as email.","schema":{"type":"string"}},\
        {"name":"password","summary":"What the user typed as password.","schema":{"type":"string","writeOnly":true}}],\
        "outputs":[\
        {"name":"isLoginAllowed","summary":"The email looks like an address and the password has at least 6 characters.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"isLoading","summary":"submit is running.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"loginSuccess","summary":"The signed-in user.","kind":"event","schema":{"type":"string"}},\
        {"name":"loginFailure","summary":"Why the login failed, for a person.","kind":"event","schema":{"type":"string"}}],\
        "actions":[{"name":"submit","summary":"Sign in with the typed email and password.","input":{"type":"null"},"output":{"type":"string"}}]}
        """)
    }
}
