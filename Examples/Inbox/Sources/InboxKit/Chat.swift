import ReactiveCore
import ViewModelKit

/// A conversation: a search that follows what the user types, and a `send` that gives up
/// after `sendTimeoutMilliseconds`.
///
/// - Each `query` starts a search on the injected ``ChatService``; a newer query cancels the
///   search still running (`flatMapLatest`), so `results` always answers the latest query.
///   A search that fails shows no results.
/// - `send` is one request at a time (`isSending` while it runs); without an answer within
///   the timeout it fails and the service's task is cancelled. A failure says why on
///   `sendFailure`.
public struct Chat: ViewModel {
    public typealias Services = any ChatService
    public static let summary = "A conversation: a search that follows the query, and a send with a timeout."

    /// `{"sendTimeoutMilliseconds": 1000}`, optional.
    public struct Arguments: ViewModelArguments, Equatable {
        /// How long a send may wait for the server (at least 1 ms).
        public var sendTimeoutMilliseconds = 1000

        /// The default above.
        public init() {}
    }

    /// The ports, in wire order.
    public struct Ports: ViewModelPorts {
        public let query = Input<String>("Search the conversation for this text.")
        public let results = State<[String]>("The messages matching the latest query.", initial: [])
        public let isSending = State<Bool>("send is running.", initial: false)
        public let sendFailure = EventOutput<String>("Why a message was not sent, for a person.")
        public let send = ActionPort<String, String>("Send a message; returns the id the server gave it.")

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let chat = context.services
        let timeout = Duration.milliseconds(max(1, context.args.sendTimeoutMilliseconds))
        let send: Action<String, String> = context.action(timeout: timeout) { text in
            try await chat.send(text)
        }
        let results = ports.query.flatMapLatest { query in
            context.call { try await chat.search(query) }.catchAndReturn([])
        }

        ports.results.bind(results)
        ports.isSending.bind(send.executing)
        ports.sendFailure.bind(send.errors.compactMap { error in
            guard case .underlyingError(let underlying) = error else { return nil }
            if underlying is ViewModelTimeoutError { return "The chat server did not answer in time." }
            return error.failureMessage
        })
        ports.send.bind(send)
    }
}
