/// The kernel interface an ``EventLoop`` waits with.
///
/// Both backends give the same ``EventLoop`` behaviour (level-triggered readiness, hang-ups
/// and errors always reported, a closed descriptor silently forgotten); they differ in cost:
/// `epoll` keeps the interest set in the kernel, `poll` hands the whole set to the kernel on
/// every wait, which is portable but grows with the number of descriptors.
public enum EventLoopBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Linux's `epoll(7)`; the default there.
    case epoll
    /// POSIX `poll(2)`, available on every system; the default where epoll does not exist.
    case poll

    /// `epoll` on Linux, `poll` elsewhere (Darwin has no epoll).
    public static var platformDefault: EventLoopBackend {
        #if os(Linux)
        .epoll
        #else
        .poll
        #endif
    }

    /// The backends this system offers, the default first.
    public static var available: [EventLoopBackend] {
        #if os(Linux)
        [.epoll, .poll]
        #else
        [.poll]
        #endif
    }

    public var description: String { rawValue }
}
