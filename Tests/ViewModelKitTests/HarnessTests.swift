import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting

@Suite("Kickstarter-style view-model tests: push inputs, assert the exact outputs")
struct HarnessTests {
    @Test("Counter counts the inputs pushed at virtual times")
    func counterCounts() throws {
        let scheduler = TestScheduler()
        let counter = ViewModelHarness(Counter.self, args: try Counter.Arguments(json: ["start": 1]), scheduler: scheduler)
        let count = counter.record(\.count)
        scheduler.scheduleAt(10) { counter.send(\.increment, 1) }
        scheduler.scheduleAt(20) { counter.send(\.increment, 5) }
        scheduler.scheduleAt(30) { counter.send(\.decrement) }
        scheduler.scheduleAt(40) { counter.execute(\.reset) }
        scheduler.scheduleAt(50) { counter.send(\.set, 42) }
        scheduler.start()
        #expect(count.values == [1, 2, 7, 6, 0, 42])
    }

    @Test("Login allows submitting only with an address and six characters")
    func loginValidation() throws {
        let login = try ViewModelHarness(Login.self, services: DemoAuth(), scheduler: TestScheduler())
        let allowed = login.record(\.isLoginAllowed)
        login.send(\.email, "demo")
        login.send(\.password, "secret")
        login.send(\.email, "demo@example.com")
        login.send(\.password, "short")
        #expect(allowed.values == [false, true, false], "the invalid first pair repeats false: not sent again")
        let refused = login.execute(\.submit)
        #expect(refused.error as? ActionError == .notEnabled)
    }

    @Test("Login's submit shows loading, then the signed-in user")
    func loginSubmits() async throws {
        let scheduler = TestScheduler()
        let login = try ViewModelHarness(Login.self, services: DemoAuth(), scheduler: scheduler)
        let isLoading = login.record(\.isLoading)
        let success = login.record(\.loginSuccess)
        let failure = login.record(\.loginFailure)
        login.send(\.email, "demo@example.com")
        login.send(\.password, "secret")
        let submit = login.execute(\.submit)
        #expect(isLoading.values == [false, true])
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(isLoading.values == [false, true, false])
        #expect(success.values == ["demo@example.com"])
        #expect(failure.values.isEmpty)
        #expect(submit.values == ["demo@example.com"])
        #expect(submit.isCompleted)
    }

    @Test("Login reports a wrong password as a message a person can read")
    func loginFails() async throws {
        let scheduler = TestScheduler()
        let login = try ViewModelHarness(Login.self, services: DemoAuth(), scheduler: scheduler)
        let failure = login.record(\.loginFailure)
        login.send(\.email, "demo@example.com")
        login.send(\.password, "guessed")
        login.execute(\.submit)
        #expect(await scheduler.waitForEnqueued())
        scheduler.advance()
        #expect(failure.values == ["Wrong email or password."])
    }

    @Test("disposing the harness ends the view model's bindings")
    func disposeEndsBindings() throws {
        let counter = try ViewModelHarness(Counter.self, scheduler: TestScheduler())
        let count = counter.record(\.count)
        counter.send(\.increment, 1)
        counter.dispose()
        counter.send(\.increment, 1)
        #expect(count.values == [0, 1])
    }
}
