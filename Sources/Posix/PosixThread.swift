#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain OS thread, for work that must block (an event loop) and so must stay off the
/// Swift concurrency pool.
public final class PosixThread: Sendable {
    #if canImport(Glibc)
    private let thread: pthread_t
    #else
    // On Darwin pthread_t is a pointer; it is only passed back to pthread_join.
    private let thread: UInt
    #endif

    private init(thread: pthread_t) {
        #if canImport(Glibc)
        self.thread = thread
        #else
        self.thread = UInt(bitPattern: thread)
        #endif
    }

    /// Starts a thread running `body`. The closure is `sending`: the caller hands it (and
    /// whatever non-Sendable state it captures, such as an event loop) over for good.
    public static func spawn(_ body: sending @escaping () -> Void) throws -> PosixThread {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw SystemError(call: "pthread_create", errno: result)
        }
        #if canImport(Glibc)
        return PosixThread(thread: thread)
        #else
        guard let thread else { throw SystemError(call: "pthread_create", errno: EINVAL) }
        return PosixThread(thread: thread)
        #endif
    }

    /// Waits for the thread to finish. Call at most once.
    public func join() {
        #if canImport(Glibc)
        _ = pthread_join(thread, nil)
        #else
        if let handle = pthread_t(bitPattern: thread) { _ = pthread_join(handle, nil) }
        #endif
    }

    /// An identifier for the calling thread (for "am I on the loop thread?" checks).
    public static var currentID: UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }
}

/// Carries a thread's closure through pthread_create's `void *`.
/// Not Sendable, and needs not be: it is created by the spawning thread, which gives it up
/// (`sending`), and only the new thread touches it afterwards.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
