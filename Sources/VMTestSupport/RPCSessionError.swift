import JSONCore

/// Why an ``RPCSession`` could not give a test what it asked for.
package enum RPCSessionError: Error, CustomStringConvertible {
    /// Nothing (or not the awaited message) arrived within the timeout.
    case timedOut(String)
    /// The server closed the connection.
    case closed(String)
    /// The server wrote something that is not a JSON-RPC message.
    case malformed(String)
    /// A call the test needed to succeed was answered with an error (the reply, quoted).
    case errorReply(String)
    /// A reply lacked a member the test needed, or a file lacked what the test reads from it.
    case missing(String)
    /// The transport cannot do what the test asked (daemon arguments for the in-memory server).
    case unsupported(String)

    package var description: String {
        switch self {
        case .timedOut(let text), .closed(let text), .malformed(let text), .errorReply(let text), .missing(let text),
             .unsupported(let text):
            text
        }
    }
}
