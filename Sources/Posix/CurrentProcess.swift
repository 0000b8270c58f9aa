#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPosix

/// Facts about, and actions on, the running process, for modules that do not import libc.
public enum CurrentProcess {
    public static var uid: UInt32 { getuid() }
    public static var gid: UInt32 { getgid() }
    public static var pid: Int32 { getpid() }
    public static var parentPID: Int32 { getppid() }

    /// Blocks the calling thread for `duration` (resumed after a signal until it has passed).
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// The host name (`gethostname`), or `"localhost"` if it cannot be read.
    public static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let result = buffer.withUnsafeMutableBufferPointer { storage in
            storage.baseAddress.map { gethostname($0, storage.count - 1) } ?? -1
        }
        guard result == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The environment as a dictionary (the first occurrence of a repeated name wins, as `getenv`).
    public static var environment: [String: String] {
        var result: [String: String] = [:]
        guard var entry = cposix_environ() else { return result }
        while let pointer = entry.pointee {
            if let (name, value) = environmentEntry(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))),
               result[name] == nil {
                result[name] = value
            }
            entry += 1
        }
        return result
    }

    /// One `NAME=value` entry of the environment split at its first `=`; nil without one.
    /// Split by byte, not by `Character`: a `Character` search segments the text into
    /// grapheme clusters, paid for every variable at every daemon start-up (its cost:
    /// ViewModelDaemon.docc's Performance article).
    package static func environmentEntry(_ line: UnsafeRawBufferPointer) -> (name: String, value: String)? {
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return (String(decoding: line[..<equals], as: UTF8.self), String(decoding: line[(equals + 1)...], as: UTF8.self))
    }

    /// `getenv`.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `setenv` (overwriting) or, with `nil`, `unsetenv`. Not thread-safe (no libc setenv is):
    /// call it at start-up, before other threads read the environment.
    public static func setEnvironmentValue(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    /// The current working directory.
    public static var workingDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let ok = buffer.withUnsafeMutableBufferPointer { getcwd($0.baseAddress, $0.count) } != nil
        guard ok else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `fd` is a terminal (for colour and interactive output decisions).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Ends the process now with `code` (stdio buffers are flushed, no Swift deinit runs).
    public static func exit(_ code: Int32) -> Never { libcExit(code) }

    /// Writes all of `bytes` to standard error, ignoring failures (for last-resort messages).
    public static func writeToStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                libcWrite(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if cposix_errno() == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
