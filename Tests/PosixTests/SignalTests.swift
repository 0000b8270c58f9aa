import Posix
import Testing

@Suite("Signals as loop callbacks", .serialized)
struct SignalTests {
    @Test("a raised SIGUSR1 arrives as a callback on the loop thread", arguments: EventLoopBackend.available)
    func signalCallback(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var received = 0
        var onLoopThread = false
        try loop.onSignal(.user1) {
            received += 1
            onLoopThread = loop.isInLoopThread
        }
        try UnixSignal.user1.raiseInCurrentProcess()
        #expect(try runLoop(loop) { received == 1 })
        #expect(onLoopThread)
        try loop.removeSignalHandler(.user1)
    }

    @Test("a signal sent from another thread reaches a loop running on its own thread", arguments: EventLoopBackend.available)
    func signalToLoopThread(backend: EventLoopBackend) throws {
        let done = try FileDescriptor.pipe()
        let loopThread = try EventLoopThread.start(backend: backend) { loop in
            try loop.onSignal(.user2) {
                try? done.write.writeAll([1])
                try? loop.removeSignalHandler(.user2)
            }
        }
        defer { loopThread.stopAndJoin() }
        // The handler is installed by setup on the loop thread; ask the loop to raise the
        // signal so it is certainly installed first (any thread may take the signal).
        loopThread.handle.execute { try? ChildProcess.send(.user2, to: CurrentProcess.pid) }
        #expect(try done.read.wait(for: .readable, timeout: .seconds(10)).contains(.readable))
    }
}
