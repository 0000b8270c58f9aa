import JSONCore
import ReactiveCore
import ViewModelKit

/// The MVVM articles' follow ("attention") button: whether you follow a user, loaded by a request
/// when the instance is created, flipped by `toggle` through the service.
///
/// Every service call (the initial load, `toggle`, `reload`) goes through one ``Action``,
/// so there is one request at a time: a second `toggle` while one runs is refused with
/// not-enabled, and a toggle can never race a load. `toggle` is enabled once the service has
/// answered at least once (before that, "the opposite state" is unknown). `isFollowing` is
/// always the service's last answer; a failed call leaves it as it was, ends `isLoading`,
/// and comes out as the `failure` event (and as the action's error) instead of a stuck
/// spinner.
public struct Follow: ViewModel {
    public typealias Services = FollowServiceFactory
    public static let summary = "A follow button: loads whether you follow a user, then toggles it through a service."

    /// `{"userId": string, "initial": boolean, "latencyMs": 0…600000, "failEvery": integer ≥ 0}`,
    /// each default written once below. `initial` and `failEvery` configure the built-in
    /// in-memory service (see ``InMemoryFollowService``).
    public struct Arguments: ViewModelArguments, Equatable {
        /// The user to follow.
        public var userId = "vmd"
        /// Whether the built-in service starts out following.
        public var initial = true
        /// Simulated network delay before each service call, in milliseconds.
        public var latencyMs = 500
        /// The built-in service fails every Nth call; 0 never fails.
        public var failEvery = 0

        /// Every argument at its default.
        public init() {}

        /// The arguments with those given set, the others at their defaults.
        public init(userId: String? = nil, initial: Bool? = nil, latencyMs: Int? = nil, failEvery: Int? = nil) {
            if let userId { self.userId = userId }
            if let initial { self.initial = initial }
            if let latencyMs { self.latencyMs = latencyMs }
            if let failEvery { self.failEvery = failEvery }
        }

        /// Bounds and descriptions the derived schema cannot know.
        public static var memberSchemas: [String: JSONValue] {
            [
                "userId": ["type": "string", "minLength": 1, "maxLength": 64, "description": "The user to follow."],
                "initial": ["type": "boolean", "description": "Whether the built-in service starts out following."],
                "latencyMs": Milliseconds.schema,
                "failEvery": ["type": "integer", "minimum": 0, "description": "The built-in service fails every Nth call (the initial load is call 1); 0 never fails."],
            ]
        }
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let isFollowing = State<Bool>("Whether you follow the user, as the service last said.", initial: false)
        public let isLoading = State<Bool>("A request to the service is running (the initial load, toggle or reload).", initial: false)
        public let failure = EventOutput<String>("Why a request failed, for a person; isFollowing stays as it was.")
        public let toggle = ActionPort<Void, Bool>("Ask the service for the opposite of isFollowing; returns the new state. Enabled once the state is known.")
        public let reload = ActionPort<Void, Bool>("Ask the service for the current state again; returns it.")

        public init() {}
    }

    /// One call to the service.
    private enum Request: Sendable {
        case load
        case set(Bool)
    }

    public init(ports: Ports, context: Context) {
        let service = context.services(context.args)
        let userId = context.args.userId
        let latency = Milliseconds.duration(context.args.latencyMs)
        let requests: Action<Request, Bool> = context.action(after: latency) { request in
            switch request {
            case .load: try await service.isFollowing(userId: userId)
            case .set(let isFollowing): try await service.setFollowing(isFollowing, userId: userId)
            }
        }
        // Every answer is the service's truth; until the first one, toggle has no latest
        // value to flip and is not enabled. (`startWith` the state's initial value, so a
        // first answer of `false` is not published as a change.)
        let answers = requests.elements
        ports.isFollowing.bind(answers.startWith(false).distinctUntilChanged())
        ports.isLoading.bind(requests.executing)
        ports.failure.bind(requests.errors.compactMap(\.failureMessage))
        ports.toggle.bind(requests, with: answers.map { Request.set(!$0) })
        ports.reload.bind(requests) { Request.load }
        // The initial request: nobody subscribes to it, so it runs to its end (or until the
        // instance is destroyed and the action released).
        requests.execute(.load)
    }
}
