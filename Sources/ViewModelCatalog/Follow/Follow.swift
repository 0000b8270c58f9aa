import JSONCore
import ReactiveCore
import ViewModelKit

/// Seed 003's follow ("attention") button: whether you follow a user, loaded by a request
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

    /// `{"userId": string = "vmd", "initial": boolean = true, "latencyMs": 0…600000 = 500,
    /// "failEvery": integer ≥ 0 = 0}`. `initial` and `failEvery` configure the built-in
    /// in-memory service (see ``InMemoryFollowService``).
    public struct Arguments: JSONConvertible, Sendable, Equatable {
        /// The user to follow.
        public var userId: String
        /// Whether the built-in service starts out following.
        public var initial: Bool
        /// Simulated network delay before each service call, in milliseconds.
        public var latencyMs: Int
        /// The built-in service fails every Nth call; 0 never fails.
        public var failEvery: Int

        public init(userId: String = "vmd", initial: Bool = true, latencyMs: Int = 500, failEvery: Int = 0) {
            self.userId = userId
            self.initial = initial
            self.latencyMs = latencyMs
            self.failEvery = failEvery
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            try members.rejectUnknownMembers(allowed: ["userId", "initial", "latencyMs", "failEvery"])
            userId = try members.decode("userId", default: "vmd")
            initial = try members.decode("initial", default: true)
            latencyMs = try members.decode("latencyMs", default: 500)
            failEvery = try members.decode("failEvery", default: 0)
        }

        public var jsonValue: JSONValue {
            ["userId": .string(userId), "initial": .bool(initial), "latencyMs": latencyMs.jsonValue, "failEvery": failEvery.jsonValue]
        }

        public static var jsonSchema: JSONValue {
            JSONSchemaBuilder.object([
                "userId": ["type": "string", "minLength": 1, "maxLength": 64, "description": "The user to follow.", "default": "vmd"],
                "initial": ["type": "boolean", "description": "Whether the built-in service starts out following.", "default": true],
                "latencyMs": Milliseconds.schema(default: 500),
                "failEvery": ["type": "integer", "minimum": 0, "description": "The built-in service fails every Nth call (the initial load is call 1); 0 never fails.", "default": 0],
            ])
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
