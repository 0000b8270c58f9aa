import Testing
@testable import VMClient

/// The seq bookkeeping a resuming VMClient does (ClientSessionState.swift): duplicates across
/// a resume are dropped, gaps and overflows seen during a resume are reported lost.
@Suite("VMClient's session seq bookkeeping")
struct ClientSessionStateTests {
    private func resumable() -> ClientSessionState {
        var state = ClientSessionState()
        state.token = "0123456789abcdef0123456789abcdef"
        return state
    }

    @Test("without a session every value is accepted and nothing is recorded")
    func noSessionAcceptsAll() {
        var state = ClientSessionState()
        let accepted1 = state.accept(subscription: "sub-1", seq: 5)
        #expect(accepted1)
        let accepted2 = state.accept(subscription: "sub-1", seq: 5)
        #expect(accepted2)
        #expect(state.lastSeq.isEmpty)
    }

    @Test("a seq already delivered is a duplicate and is dropped")
    func duplicatesAreDropped() {
        var state = resumable()
        let accepted3 = state.accept(subscription: "sub-1", seq: 1)
        #expect(accepted3)
        let accepted4 = state.accept(subscription: "sub-1", seq: 2)
        #expect(accepted4)
        let accepted5 = state.accept(subscription: "sub-1", seq: 2)
        #expect(!accepted5)
        let accepted6 = state.accept(subscription: "sub-1", seq: 1)
        #expect(!accepted6)
        let accepted7 = state.accept(subscription: "sub-1", seq: 3)
        #expect(accepted7)
    }

    @Test("during a resume a gap in seq is reported lost; outside one it is not")
    func gapsDuringAResumeAreLost() {
        var state = resumable()
        let accepted8 = state.accept(subscription: "sub-1", seq: 1)
        #expect(accepted8)
        let accepted9 = state.accept(subscription: "sub-1", seq: 4)
        #expect(accepted9)
        #expect(state.lost.isEmpty)
        state.phase = .settling
        let accepted10 = state.accept(subscription: "sub-1", seq: 9)
        #expect(accepted10)
        #expect(state.lost == [VMLostRange(subscription: "sub-1", fromSeq: 5, toSeq: 8)])
    }

    @Test("an overflow during a resume is reported once, and the value after it is no gap")
    func overflowDuringAResume() {
        var state = resumable()
        let accepted11 = state.accept(subscription: "sub-1", seq: 3)
        #expect(accepted11)
        state.phase = .settling
        state.observeOverflow(subscription: "sub-1", range: 4...10)
        let accepted12 = state.accept(subscription: "sub-1", seq: 11)
        #expect(accepted12)
        #expect(state.lost == [VMLostRange(subscription: "sub-1", fromSeq: 4, toSeq: 10)])
    }

    @Test("reset forgets the session and its seqs")
    func resetForgets() {
        var state = resumable()
        state.wanted = true
        let accepted13 = state.accept(subscription: "sub-1", seq: 3)
        #expect(accepted13)
        state.reset()
        #expect(!state.isResumable)
        #expect(state.lastSeq.isEmpty)
        #expect(state.wanted, "the client still wants a session on the next connection")
    }
}
