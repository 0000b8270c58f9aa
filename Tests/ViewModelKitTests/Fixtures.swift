import Testing
import JSONCore
import ReactiveCore
import Synchronization
import ViewModelKit

// View models the kit's tests drive. Counter and Login mirror the protocol's example
// session (Protocol/PROTOCOL.md section 15), so their descriptions can be compared with it.

/// The protocol's Counter, exactly as its `vm.types` example describes it.
struct Counter: ViewModel {
    static let summary = "A number you can step up and down."

    struct Arguments: JSONConvertible {
        var start: Int
        init(json: JSONValue) throws(JSONDecodingError) { start = try JSONObjectDecoder(json).decode("start", default: 0) }
        var jsonValue: JSONValue { ["start": start.jsonValue] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["start": ["type": "integer", "default": 0]]) }
    }

    struct Ports: ViewModelPorts {
        let increment = Input<Int>("Add step to the count.", default: 1)
        let decrement = Input<Void>("Subtract one.")
        let set = Input<Int>("Replace the count.")
        let count = State<Int>("The current count.", initial: 0)
        let reset = ActionPort<Void, Int>("Set the count to 0.")
    }

    private enum Change { case by(Int), to(Int) }

    init(ports: Ports, context: Context) {
        let reset = Action<Void, Int> { .just(0) }
        ports.reset.bind(reset)
        let changes = Observable.merge(
            ports.increment.map(Change.by), ports.decrement.map { Change.by(-1) },
            ports.set.map(Change.to), reset.elements.map(Change.to))
        let start = context.args.start
        ports.count.bind(changes.scan(start) { count, change in
            switch change {
            case .by(let step): count + step
            case .to(let value): value
            }
        }.startWith(start))
    }
}

/// What Login needs from the outside world.
protocol Authenticating: Sendable {
    /// The signed-in user, or a `PresentableError` saying why not.
    func signIn(email: String, password: String) async throws -> String
}

// MARK: - The articles' login, written with the kit (the snippet of ViewModelKit.docc/WritingAViewModel.md)

struct Login: ViewModel {
    typealias Services = any Authenticating
    static let summary = "Email and password login with a slow authentication service."

    struct Ports: ViewModelPorts {
        let email = Input<String>("What the user typed as email.")
        let password = Input<String>("What the user typed as password.")
        let isLoginAllowed = State<Bool>("The email looks like an address and the password has at least 6 characters.", initial: false)
        let isLoading = State<Bool>("submit is running.", initial: false)
        let loginSuccess = EventOutput<String>("The signed-in user.")
        let loginFailure = EventOutput<String>("Why the login failed, for a person.")
        let submit = ActionPort<Void, String>("Sign in with the typed email and password.")
    }

    init(ports: Ports, context: Context) {
        let credentials = Observable.combineLatest(ports.email, ports.password).share(replay: 1)
        let isValid = credentials.map { email, password in email.contains("@") && password.count >= 6 }
        let auth = context.services
        let submit = context.action(enabledIf: isValid) { (email: String, password: String) in
            try await auth.signIn(email: email, password: password)
        }
        ports.submit.bind(submit, with: credentials)
        ports.isLoginAllowed.bind(isValid)
        ports.isLoading.bind(submit.executing)
        ports.loginSuccess.bind(submit.elements)
        ports.loginFailure.bind(submit.errors.compactMap(\.failureMessage))
    }
}

// MARK: - Test services

/// Accepts demo@example.com / secret at once; anything else fails with a readable message.
struct DemoAuth: Authenticating {
    func signIn(email: String, password: String) async throws -> String {
        guard email == "demo@example.com", password == "secret" else {
            throw ActionFailure("Wrong email or password.", data: ["reason": "badCredentials"])
        }
        return email
    }
}

/// Never answers on its own: sleeps until its task is cancelled, and says so.
final class HangingAuth: Authenticating {
    private let cancelled = Mutex(false)

    var wasCancelled: Bool { cancelled.withLock { $0 } }

    func signIn(email: String, password: String) async throws -> String {
        do {
            try await Task.sleep(for: .seconds(600))
        } catch {
            cancelled.withLock { $0 = true }
            throw error
        }
        return email
    }
}

/// Fails the test loudly if describing a type ever calls its service.
struct UntouchableAuth: Authenticating {
    func signIn(email: String, password: String) async throws -> String {
        Issue.record("describing a type must not call its services")
        return ""
    }
}
