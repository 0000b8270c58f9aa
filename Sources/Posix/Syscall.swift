#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// The one place syscalls are made from: retries on `EINTR`, turns `-1` into ``SystemError``.
///
/// `call` is an autoclosure so building the message costs nothing on success.
@inline(__always)
@discardableResult
func retryingOnInterrupt<Result: FixedWidthInteger>(
    _ call: @autoclosure () -> String, _ body: () -> Result
) throws -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = cposix_errno()
        if code == EINTR { continue }
        throw SystemError(call: call(), errno: code)
    }
}

/// Like ``retryingOnInterrupt(_:_:)`` but reports `EAGAIN`/`EWOULDBLOCK` as `nil` instead of
/// throwing, for nonblocking descriptors where "not now" is an ordinary answer. Errors listed
/// in `transient` are retried like `EINTR` (accept's `ECONNABORTED`).
@inline(__always)
func retryingOnInterruptUnlessWouldBlock<Result: FixedWidthInteger>(
    _ call: @autoclosure () -> String, alsoRetrying transient: [Int32] = [], _ body: () -> Result
) throws -> Result? {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = cposix_errno()
        if code == EINTR || transient.contains(code) { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return nil }
        throw SystemError(call: call(), errno: code)
    }
}

/// For calls that return an errno value directly (posix_spawn, pthread_*), 0 meaning success.
@inline(__always)
func checkingReturnedError(_ call: @autoclosure () -> String, _ body: () -> Int32) throws {
    let code = body()
    if code != 0 { throw SystemError(call: call(), errno: code) }
}
