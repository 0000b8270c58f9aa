import Posix
import ReactiveCore
import Testing
import VMTransport
import VMTestSupport

@Suite("LoopScheduler: the event loop as the reactive core's SerialScheduler", .offTheCooperativePool)
struct LoopSchedulerTests {
    /// Runs `body` on a fresh loop thread, with the scheduler, and waits for `done` to be set.
    private func onLoop(_ body: @escaping @Sendable (LoopScheduler, LineRecorder) -> Void) throws -> [String] {
        let recorder = LineRecorder()
        let thread = try EventLoopThread.start(setup: { loop in
            body(LoopScheduler(loop: loop), recorder)
        })
        defer { thread.stopAndJoin() }
        #expect(Waiting.until { recorder.isFinished })
        return recorder.all
    }

    @Test("schedule runs later on the loop, never inline, in FIFO order")
    func scheduleIsDeferredAndOrdered() throws {
        let lines = try onLoop { scheduler, recorder in
            scheduler.schedule { recorder.append("a") }
            scheduler.schedule { recorder.append("b") }
            recorder.append("inline")
            scheduler.schedule { recorder.finish() }
        }
        #expect(lines == ["inline", "a", "b"])
    }

    @Test("a disposed job or timer never runs")
    func disposalCancels() throws {
        let lines = try onLoop { scheduler, recorder in
            scheduler.schedule { recorder.append("cancelled job") }.dispose()
            scheduler.schedule(after: .milliseconds(5)) { recorder.append("cancelled timer") }.dispose()
            scheduler.schedule(after: .milliseconds(20)) { recorder.finish() }
        }
        #expect(lines.isEmpty)
    }

    @Test("timers fire in deadline order")
    func timersInOrder() throws {
        let lines = try onLoop { scheduler, recorder in
            scheduler.schedule(after: .milliseconds(30)) { recorder.append("30"); recorder.finish() }
            scheduler.schedule(after: .milliseconds(10)) { recorder.append("10") }
            scheduler.schedule(after: .milliseconds(20)) { recorder.append("20") }
        }
        #expect(lines == ["10", "20", "30"])
    }

    @Test("enqueue from other threads hops onto the loop thread")
    func enqueueFromAnyThread() throws {
        let lines = try onLoop { scheduler, recorder in
            let loopThread = PosixThread.currentID
            for _ in 0..<4 {
                _ = try? PosixThread.spawn {
                    scheduler.enqueue {
                        recorder.append(PosixThread.currentID == loopThread ? "on loop" : "elsewhere")
                        if recorder.all.count == 4 { recorder.finish() }
                    }
                }
            }
        }
        #expect(lines == Array(repeating: "on loop", count: 4))
    }

    @Test("a BehaviorSubject driven through the scheduler delivers on the loop")
    func reactiveGraphOnLoop() throws {
        let lines = try onLoop { scheduler, recorder in
            let subject = BehaviorSubject(value: 0)
            let subscription = subject.subscribe(onNext: { recorder.append("value \($0)") })
            scheduler.schedule(after: .milliseconds(5)) {
                subject.onNext(1)
                subscription.dispose()
                recorder.finish()
            }
        }
        #expect(lines == ["value 0", "value 1"])
    }
}
