import Posix

/// Gives freed heap back to the kernel once the daemon goes idle after a burst (and, during
/// one, hands the heap's growth to the prefault thread: ``frameReceived(size:)``).
///
/// glibc keeps freed blocks in its arenas, so without this the daemon's resident size stays
/// at its peak forever (80 MB after 10,000 instances were gone, 14 MB after
/// `malloc_trim`). A *burst* is at least ``burstFrames`` frames or ``burstBytes`` bytes of
/// frames (a few batches can create or destroy thousands of instances), or one closed
/// connection (it may have owned many connection-scoped instances), since the last trim;
/// *idle* is a whole `idleDelay` with at most ``quietFrames`` frames: a monitor polling
/// `daemon.info` every second must not keep the heap at its peak. Then it calls
/// ``Posix/Heap/trim()`` once, and never more than once per ``minimumInterval`` (a trim walks
/// every arena). Loop thread only.
final class HeapTrimmer {
    /// Frames that make a burst on their own.
    static let burstFrames = 256
    /// Frame bytes that make a burst on their own.
    static let burstBytes = 262_144
    /// Frames in one `idleDelay` that still count as quiet (a trickle, not load).
    static let quietFrames = 8
    /// The shortest time between two trims.
    static let minimumInterval: Duration = .seconds(10)

    private let loop: EventLoop
    private let idleDelay: Duration
    private let trim: () -> Bool
    private let log: DaemonLog
    private var frames = 0
    private var bytes = 0
    private var closedConnections = 0
    private var framesAtLastLook = 0
    private var isArmed = false
    private var lastTrimNanoseconds: UInt64?
    /// How many trims ran (for tests and the log).
    private(set) var trimCount = 0

    init(loop: EventLoop, idleDelay: Duration, log: DaemonLog, trim: @escaping () -> Bool = { Heap.trim() }) {
        self.loop = loop
        self.idleDelay = idleDelay
        self.log = log
        self.trim = trim
    }

    /// A frame of `size` bytes was received (the hot path: two additions and two tests).
    /// Every fourth frame, the first included, also hands the heap's growth to the prefault
    /// thread (``Posix/Heap/prefaultGrowth()``; Daemon.swift starts it): the loop thread then
    /// takes page faults only on what the heap grew by within the last few frames. (From the
    /// first frame on, so that the heap's top is mapped as early as it will be under load.)
    @inline(__always)
    func frameReceived(size: Int) {
        frames &+= 1
        if frames & 3 == 1 { Heap.prefaultGrowth() }
        bytes &+= size
        if !isArmed { arm(after: idleDelay) }
    }

    /// A connection closed.
    func connectionClosed() {
        closedConnections += 1
        if !isArmed { arm(after: idleDelay) }
    }

    private var isBurst: Bool { frames >= Self.burstFrames || bytes >= Self.burstBytes || closedConnections > 0 }

    private func arm(after delay: Duration) {
        isArmed = true
        framesAtLastLook = frames
        _ = loop.schedule(after: delay) { [weak self] in self?.look() }
    }

    /// Runs every `idleDelay` while there is activity: trims once a whole period passed
    /// without a frame after a burst; stops looking once there is nothing to trim for.
    private func look() {
        isArmed = false
        guard isBurst else {
            // A trickle of frames is no reason to trim; start counting afresh.
            frames = 0
            bytes = 0
            return
        }
        guard frames &- framesAtLastLook <= Self.quietFrames else {
            arm(after: idleDelay)  // still busy
            return
        }
        let now = MonotonicClock.nanoseconds()
        if let last = lastTrimNanoseconds {
            let interval = UInt64(Self.minimumInterval.components.seconds) * 1_000_000_000
            if now < last + interval {
                arm(after: .nanoseconds(Int64(last + interval - now)))
                return
            }
        }
        let released = trim()
        trimCount += 1
        lastTrimNanoseconds = now
        log.debug("idle after a burst: gave freed heap back to the system", [
            "frames": LogValue(frames), "bytes": LogValue(bytes), "closedConnections": LogValue(closedConnections),
            "released": .string(released ? "yes" : "no"),
        ])
        frames = 0
        bytes = 0
        closedConnections = 0
    }
}
