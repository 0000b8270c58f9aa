import CommandLineKit
import JSONCore
import VMProtocol
import Posix
import VMClient

/// One run of vmctl: the parsed command line, the console, and the daemon connection,
/// opened on first use (so `help` and `completion` never touch the socket).
final class Invocation {
    let parsed: ParsedCommand
    let console: Console
    let environment: [String: String]
    let location: VMSocketLocation
    /// Replaced by a resumed `watch` (WatchSession.swift) after a drop.
    var connection: VMBlockingConnection?

    init(parsed: ParsedCommand, console: Console, environment: [String: String]) {
        self.parsed = parsed
        self.console = console
        self.environment = environment
        self.location = VMSocketLocation.resolve(explicitPath: parsed.value("socket"), environment: environment)
    }

    /// `--json`: print exactly the JSON results.
    var json: Bool { parsed.flag("json") }

    /// A required positional argument (the parser guarantees it is there).
    func argument(_ name: String) -> String { parsed.positional(name) ?? "" }

    /// An integer option, as a usage error when it is not one.
    func integer(_ option: String) throws(CommandFailure) -> Int? {
        do {
            return try parsed.int(option)
        } catch {
            throw .usage(error)
        }
    }

    /// A number of seconds (decimals allowed), as a usage error when it is not one.
    func seconds(_ option: String) throws(CommandFailure) -> Duration? {
        guard let text = parsed.value(option) else { return nil }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw .usage("invalid value '\(text)' for --\(option): expected a number of seconds", parsed)
        }
        return .nanoseconds(Int64(seconds * 1_000_000_000))
    }

    /// The connection to the daemon, made on first use.
    func connect() throws(CommandFailure) -> VMBlockingConnection {
        if let connection { return connection }
        do {
            let made = try VMBlockingConnection.connect(to: location)
            connection = made
            return made
        } catch {
            throw .client(error, at: location)
        }
    }

    /// Calls `method` and returns its result, turning failures into exit statuses.
    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil) throws(CommandFailure) -> JSONValue {
        let connection = try connect()
        do {
            return try connection.call(method, params)
        } catch {
            throw .client(error, at: location)
        }
    }

    /// Calls `method` (by its VMProtocol type) with `params`, as ``call(_:_:)-(String,_)``.
    @discardableResult
    func call(_ method: any VMMethod.Type, _ params: JSONValue? = nil) throws(CommandFailure) -> JSONValue {
        try call(method.name, params)
    }

    /// The next notification on the connection, or `nil` once `deadline` (monotonic
    /// nanoseconds; `nil` waits for ever) has passed, turning failures into exit statuses.
    /// `onDisconnect` may mend a lost connection (it throws when it cannot); reading goes on.
    func nextNotification(
        before deadline: UInt64?, onDisconnect: ((String) throws(CommandFailure) -> Void)? = nil
    ) throws(CommandFailure) -> (method: String, params: JSONValue)? {
        let connection = try connect()
        var timeout: Duration? = nil
        if let deadline {
            let now = MonotonicClock.nanoseconds()
            if now >= deadline { return nil }
            timeout = .nanoseconds(Int64(clamping: deadline - now))
        }
        do {
            return try connection.nextNotification(timeout: timeout)
        } catch .disconnected(let reason) where onDisconnect != nil {
            try onDisconnect?(reason)
            return try nextNotification(before: deadline, onDisconnect: onDisconnect)
        } catch {
            throw .client(error, at: location)
        }
    }

    /// Prints a result: compact JSON with `--json`, else what `readable` writes.
    func print(_ result: JSONValue, readable: (Console) -> Void) {
        if json {
            console.line(result.encodedString())
        } else {
            readable(console)
        }
    }
}
