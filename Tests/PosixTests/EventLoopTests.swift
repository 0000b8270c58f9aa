#if canImport(Glibc)
import Glibc
#endif
import Posix
import Synchronization
import Testing

/// Last job index seen per producer thread, shared with Sendable jobs.
private final class SharedIndices: Sendable {
    let indices: Mutex<[Int]>
    init(count: Int) { indices = Mutex([Int](repeating: -1, count: count)) }
}

@Suite("Event loop")
struct EventLoopTests {
    @Test("a readable descriptor calls its handler with the bytes waiting", arguments: EventLoopBackend.available)
    func readableCallback(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        var received: [UInt8] = []
        let registration = try loop.register(pipe.read, interest: .readable) { events in
            #expect(events.contains(.readable))
            if let bytes = try? pipe.read.read(upTo: 100) { received += bytes }
        }
        try pipe.write.writeAll([UInt8]("hello"))
        #expect(try runLoop(loop) { received == [UInt8]("hello") })
        loop.deregister(registration)
        loop.deregister(registration) // a repeated deregister is harmless
    }

    @Test("a closed peer is reported as a hang-up", arguments: EventLoopBackend.available)
    func hangup(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        var sawHangup = false
        let registration = try loop.register(pipe.read, interest: .readable) { events in
            if events.contains(.hangup) { sawHangup = true }
        }
        try pipe.write.close()
        #expect(try runLoop(loop) { sawHangup })
        loop.deregister(registration)
    }

    @Test("writable interest can be added and removed with modify", arguments: EventLoopBackend.available)
    func modifyInterest(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        var writableCount = 0
        let registration = try loop.register(pipe.write, interest: []) { events in
            if events.contains(.writable) { writableCount += 1 }
        }
        try loop.runOnce(blocking: false)
        #expect(writableCount == 0)
        try loop.modify(registration, interest: .writable)
        #expect(try runLoop(loop) { writableCount >= 1 })
        try loop.modify(registration, interest: [])
        let before = writableCount
        try loop.runOnce(blocking: false)
        #expect(writableCount == before)
        loop.deregister(registration)
        #expect(throws: SystemError.self) { try loop.modify(registration, interest: .writable) }
    }

    @Test("a deregistered handler is never called, even if its number is reused", arguments: EventLoopBackend.available)
    func staleRegistration(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let first = try FileDescriptor.pipe(nonBlocking: true)
        var firstCalls = 0
        let registration = try loop.register(first.read, interest: .readable) { _ in firstCalls += 1 }
        loop.deregister(registration)
        try first.write.writeAll([1])
        try loop.runOnce(blocking: false)
        #expect(firstCalls == 0)
        // Put a new pipe under the same number. dup2 replaces the descriptor we still own in
        // one step, so no other test running in parallel can take the number in between
        // (closing it and hoping the kernel hands it back is not deterministic).
        let second = try FileDescriptor.pipe(nonBlocking: true)
        let number = first.read.release()
        try #require(dup2(second.read.rawValue, number) == number)
        let reused = FileDescriptor(adopting: number)
        var secondCalls = 0
        let again = try loop.register(reused, interest: .readable) { _ in
            secondCalls += 1
            _ = try? reused.read(upTo: 10)
        }
        try second.write.writeAll([2])
        #expect(try runLoop(loop) { secondCalls == 1 })
        #expect(firstCalls == 0)
        #expect(again.fd == number)
        #expect(again != registration)
        loop.deregister(again)
    }

    @Test("registering the same open descriptor twice is refused", arguments: EventLoopBackend.available)
    func duplicateRegistration(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        let registration = try loop.register(pipe.read, interest: .readable) { _ in }
        #expect(throws: SystemError.self) { try loop.register(pipe.read, interest: .readable) { _ in } }
        loop.deregister(registration)
    }

    @Test("timers fire in deadline order, ties in scheduling order", arguments: EventLoopBackend.available)
    func timersInOrder(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired: [String] = []
        let start = loop.now
        loop.schedule(atNanoseconds: start + 30_000_000) { fired.append("c") }
        loop.schedule(atNanoseconds: start + 10_000_000) { fired.append("a1") }
        loop.schedule(atNanoseconds: start + 10_000_000) { fired.append("a2") }
        loop.schedule(after: .milliseconds(20)) { fired.append("b") }
        loop.schedule(after: .zero) { fired.append("now") }
        #expect(try runLoop(loop) { fired.count == 5 })
        #expect(fired == ["now", "a1", "a2", "b", "c"])
        #expect(loop.now - start >= 30_000_000)
    }

    @Test("a cancelled timer never fires, and cancelling twice reports false", arguments: EventLoopBackend.available)
    func timerCancel(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired: [Int] = []
        let cancelled = loop.schedule(after: .milliseconds(5)) { fired.append(1) }
        loop.schedule(after: .milliseconds(10)) { fired.append(2) }
        #expect(loop.cancel(cancelled))
        #expect(!loop.cancel(cancelled))
        #expect(try runLoop(loop) { fired.count == 1 })
        #expect(fired == [2])
        #expect(loop.timerCount == 0)
    }

    @Test("many cancelled timers do not keep the queue growing", arguments: EventLoopBackend.available)
    func manyCancelledTimers(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        for _ in 0..<10_000 {
            let timer = loop.schedule(after: .seconds(3600)) {}
            loop.cancel(timer)
        }
        #expect(loop.timerCount == 0)
        var fired = false
        loop.schedule(after: .zero) { fired = true }
        #expect(try runLoop(loop) { fired })
    }

    @Test("a timer scheduled while the loop waits for a later one fires at its own deadline",
          arguments: EventLoopBackend.available)
    func earlierTimerWhileWaiting(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired: [String] = []
        let start = loop.now
        loop.schedule(after: .seconds(3)) { fired.append("late") }
        // The loop is asleep until the late deadline when the poke arrives.
        let poke = try Poke(loop, after: .milliseconds(50)) {
            loop.schedule(after: .milliseconds(20)) { fired.append("early") }
        }
        #expect(try runLoop(loop) { !fired.isEmpty })
        poke.finish()
        #expect(fired == ["early"])
        #expect(loop.now - start < 2_000_000_000)
    }

    @Test("a cancelled timer's deadline wakes the loop once, fires nothing, and the next timer still fires",
          arguments: EventLoopBackend.available)
    func cancelledTimerWakesOnce(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired: [String] = []
        let cancelled = loop.schedule(after: .milliseconds(30)) { fired.append("cancelled") }
        loop.schedule(after: .milliseconds(100)) { fired.append("kept") }
        // Cancelled while the loop waits for its deadline.
        let poke = try Poke(loop, after: .milliseconds(5)) { loop.cancel(cancelled) }
        var passes = 0
        #expect(try runLoop(loop) { passes += 1; return !fired.isEmpty })
        poke.finish()
        #expect(fired == ["kept"])
        // A pass for the poke, the cancelled deadline and the kept one, and a few spare; a
        // timer left readable would make every wait return at once, thousands of passes.
        #expect(passes < 20)
    }

    @Test("once its last timer fired, the loop sleeps until there is something to do",
          arguments: EventLoopBackend.available)
    func sleepsAfterLastTimer(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired = false
        loop.schedule(after: .milliseconds(10)) { fired = true }
        while !fired { try loop.runOnce() }
        #expect(loop.timerCount == 0)
        let ran = Counter()
        let handle = loop.handle
        let producer = try PosixThread.spawn {
            CurrentProcess.sleep(for: .milliseconds(50))
            handle.execute { ran.increment() }
        }
        // One pass with nothing pending: it returns only for the job (a spent timer still
        // readable would end it at once, before the job).
        try loop.runOnce()
        producer.join()
        #expect(ran.count == 1)
    }

    @Test("a timer scheduled by a timer callback runs on a later pass", arguments: EventLoopBackend.available)
    func timerFromTimer(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var order: [Int] = []
        loop.schedule(after: .zero) {
            order.append(1)
            loop.schedule(after: .zero) { order.append(3) }
        }
        loop.schedule(after: .zero) { order.append(2) }
        #expect(try runLoop(loop) { order.count == 3 })
        #expect(order == [1, 2, 3])
    }

    @Test("jobs from many threads all run, on the loop thread, in per-thread order", arguments: EventLoopBackend.available)
    func crossThreadExecute(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let handle = loop.handle
        let threads = 8
        let jobsPerThread = 2_000
        let ran = Counter()
        let offThread = Counter()
        let outOfOrder = Counter()
        let lastSeen = SharedIndices(count: threads)
        var producers: [PosixThread] = []
        for producer in 0..<threads {
            producers.append(try PosixThread.spawn {
                for index in 0..<jobsPerThread {
                    handle.execute {
                        if !handle.isInLoopThread { offThread.increment() }
                        lastSeen.indices.withLock { seen in
                            if seen[producer] != index - 1 { outOfOrder.increment() }
                            seen[producer] = index
                        }
                        ran.increment()
                    }
                }
            })
        }
        #expect(try runLoop(loop) { ran.count == threads * jobsPerThread })
        for producer in producers { producer.join() }
        #expect(offThread.count == 0)
        #expect(outOfOrder.count == 0)
        #expect(handle.isInLoopThread) // this test thread ran the loop
    }

    @Test("a job submitted with the loop can register work on it", arguments: EventLoopBackend.available)
    func submitWithLoop(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let fired = Counter()
        let handle = loop.handle
        let producer = try PosixThread.spawn {
            handle.submit { loop in
                loop.schedule(after: .zero) { fired.increment() }
            }
        }
        #expect(try runLoop(loop) { fired.count == 1 })
        producer.join()
    }

    @Test("enqueued work runs after the current callback, before the loop waits", arguments: EventLoopBackend.available)
    func enqueueRunsAfterCallback(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var order: [String] = []
        loop.schedule(after: .zero) {
            loop.enqueue { order.append("deferred") }
            order.append("timer")
        }
        #expect(try runLoop(loop) { order.count == 2 })
        #expect(order == ["timer", "deferred"])
    }

    @Test("deferred work runs in queueing order, over many iterations, work it queues included", arguments: EventLoopBackend.available)
    func deferredOrderAcrossIterations(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var order: [String] = []
        for pass in 0..<3 {
            loop.enqueue {
                order.append("\(pass)a")
                loop.enqueue { order.append("\(pass)c") }
            }
            loop.enqueue { order.append("\(pass)b") }
            try loop.runOnce(blocking: false)
        }
        #expect(order == ["0a", "0b", "0c", "1a", "1b", "1c", "2a", "2b", "2c"])
    }

    @Test("a nested runOnce from deferred work runs every queued item exactly once", arguments: EventLoopBackend.available)
    func nestedRunOnceFromDeferredWork(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var order: [String] = []
        loop.enqueue {
            order.append("outer")
            loop.enqueue { order.append("queued by outer") }
            try? loop.runOnce(blocking: false)
        }
        loop.enqueue { order.append("second") }
        try loop.runOnce(blocking: false)
        #expect(order == ["outer", "queued by outer", "second"])
    }

    @Test("a loop on its own thread runs callbacks there and stops when asked", arguments: EventLoopBackend.available)
    func loopThreadStops(backend: EventLoopBackend) throws {
        let signal = try FileDescriptor.pipe()
        let onLoopThread = Counter()
        let loopThread = try EventLoopThread.start(backend: backend) { loop in
            loop.schedule(after: .zero) {
                if loop.isInLoopThread { onLoopThread.increment() }
                try? signal.write.writeAll([1])
            }
        }
        #expect(try signal.read.wait(for: .readable, timeout: .seconds(10)).contains(.readable))
        #expect(onLoopThread.count == 1)
        #expect(!loopThread.handle.isInLoopThread)
        loopThread.stopAndJoin()
        // The loop is gone once its thread ends: later jobs are refused.
        #expect(!loopThread.handle.execute {})
    }

    @Test("stop requested before run makes run return", arguments: EventLoopBackend.available)
    func stopBeforeRun(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        loop.stop()
        try loop.run()
        var ran = false
        loop.schedule(after: .zero) {
            ran = true
            loop.stop()
        }
        try loop.run()
        #expect(ran)
    }

    @Test("jobs are refused once the loop is destroyed", arguments: EventLoopBackend.available)
    func jobsAfterLoopDies(backend: EventLoopBackend) throws {
        var loop: EventLoop? = try EventLoop(backend: backend)
        let handle = try #require(loop?.handle)
        #expect(handle.execute {})
        loop = nil
        #expect(!handle.execute {})
    }

    @Test("a loop reports the backend it was created with", arguments: EventLoopBackend.available)
    func reportsBackend(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        #expect(loop.backend == backend)
    }

    @Test("a descriptor closed while registered is forgotten without calls or a busy loop",
          arguments: EventLoopBackend.available)
    func closedWhileRegistered(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        var calls = 0
        _ = try loop.register(pipe.read, interest: .readable) { _ in calls += 1 }
        try pipe.read.close()
        var fired = false
        loop.schedule(after: .milliseconds(50)) { fired = true }
        var passes = 0
        while !fired {
            try loop.runOnce()
            passes += 1
        }
        #expect(calls == 0)
        // One blocking wait up to the timer, plus slack for an early wake; a loop that kept
        // reporting the closed number would spin thousands of times in 50 ms.
        #expect(passes < 10)
        // The number may be registered again.
        let again = try FileDescriptor.pipe(nonBlocking: true)
        let registration = try loop.register(again.read, interest: .readable) { _ in }
        loop.deregister(registration)
    }

    @Test("removing one of several registrations leaves the others reporting to their own handlers",
          arguments: EventLoopBackend.available)
    func removalAmongMany(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let pipes = try (0..<4).map { _ in try FileDescriptor.pipe(nonBlocking: true) }
        var calls = [Int](repeating: 0, count: pipes.count)
        var registrations: [IORegistration] = []
        for (index, pipe) in pipes.enumerated() {
            registrations.append(try loop.register(pipe.read, interest: .readable) { _ in
                calls[index] += 1
                _ = try? pipe.read.read(upTo: 10)
            })
        }
        // The first and a middle one go; the survivors must keep their own handlers.
        loop.deregister(registrations[0])
        loop.deregister(registrations[2])
        for pipe in pipes { try pipe.write.writeAll([7]) }
        #expect(try runLoop(loop) { calls[1] == 1 && calls[3] == 1 })
        try loop.runOnce(blocking: false)
        #expect(calls == [0, 1, 0, 1])
        try loop.modify(registrations[3], interest: [])
        try pipes[3].write.writeAll([8])
        try pipes[1].write.writeAll([9])
        #expect(try runLoop(loop) { calls[1] == 2 })
        #expect(calls == [0, 2, 0, 1])
        loop.deregister(registrations[1])
        loop.deregister(registrations[3])
    }
}
