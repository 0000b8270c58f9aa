import JSONCore
import ReactiveCore
import ViewModelKit

/// The MVVM articles' login (with Kickstarter-style outputs): an email and a password in,
/// whether submitting is allowed, a loading flag and the outcome out.
///
/// - `isLoginAllowed`: the email looks like an address and the password has at least 6
///   characters; published only when it changes.
/// - `submit` is enabled only while that holds, runs one execution at a time (a second
///   submit while the first runs is refused with not-enabled), and `isLoading` is true while
///   it runs.
/// - The outcome is the action's result and, for views bound to outputs, an event:
///   `loginSuccess` (the signed-in user) or `loginFailure` (a sentence for a person).
///
/// The injected ``AuthService`` checks the credentials; `latencyMs` (see ``Arguments``) is a
/// simulated network delay before it is called, on the instance's clock.
public struct Login: ViewModel {
    public typealias Services = any AuthService
    public static let summary = "Email and password login with a slow authentication service."

    /// The shortest password that enables `submit`.
    package static let minimumPasswordLength = 6

    /// `{"latencyMs": integer 0…600000}`, its default written once below.
    public struct Arguments: ViewModelArguments, Equatable {
        /// Simulated network delay before the service is called, in milliseconds.
        public var latencyMs = 500

        /// Every argument at its default.
        public init() {}

        /// The arguments with `latencyMs` given.
        public init(latencyMs: Int) {
            self.latencyMs = latencyMs
        }

        /// `latencyMs` is bounded (see ``Milliseconds``).
        public static var memberSchemas: [String: JSONValue] { ["latencyMs": Milliseconds.schema] }
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let email = Input<String>("What the user typed as email.")
        public let password = Input<String>("What the user typed as password.", secret: true)
        public let isLoginAllowed = State<Bool>("The email looks like an address and the password has at least 6 characters.", initial: false)
        public let isLoading = State<Bool>("submit is running.", initial: false)
        public let loginSuccess = EventOutput<String>("The signed-in user.")
        public let loginFailure = EventOutput<String>("Why the login failed, for a person.")
        public let submit = ActionPort<Void, String>("Sign in with the typed email and password.")

        public init() {}
    }

    /// Whether `email` and `password` may be submitted.
    package static func isAllowed(email: String, password: String) -> Bool {
        TextRules.looksLikeEmailAddress(email) && password.count >= minimumPasswordLength
    }

    public init(ports: Ports, context: Context) {
        // Fields start empty, like a form: submitting always has both values to send.
        let credentials = Observable.combineLatest(ports.email.startWith(""), ports.password.startWith(""))
            .share(replay: 1)
        let isAllowed = credentials
            .map { email, password in Self.isAllowed(email: email, password: password) }
            .distinctUntilChanged()
            .share(replay: 1)
        let auth = context.services
        let latency = Milliseconds.duration(context.args.latencyMs)
        let submit: Action<(String, String), String> = context.action(enabledIf: isAllowed, after: latency) { email, password in
            try await auth.signIn(email: email, password: password)
        }
        ports.submit.bind(submit, with: credentials)
        ports.isLoginAllowed.bind(isAllowed)
        ports.isLoading.bind(submit.executing)
        ports.loginSuccess.bind(submit.elements)
        ports.loginFailure.bind(submit.errors.compactMap(\.failureMessage))
    }
}
