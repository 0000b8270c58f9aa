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

// Unqualified names for libc functions that types in this module shadow with methods of the
// same name (FileDescriptor.read, CurrentProcess.exit...). Written once here so the rest of
// the module never spells `Glibc.` and still compiles against Darwin.
@inline(__always) func libcRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
@inline(__always) func libcWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
@inline(__always) func libcClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) func libcRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
@inline(__always) func libcExit(_ code: Int32) -> Never { exit(code) }
@inline(__always) func libcFree(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }
