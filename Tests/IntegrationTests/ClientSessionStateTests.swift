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

    /// What `state.accept` answers for each of `seqs` on sub-1, in order.
    private func accept(_ seqs: [Int64], into state: inout ClientSessionState) -> [Bool] {
        seqs.map { state.accept(subscription: "sub-1", seq: $0) }
    }

    @Test("without a session every value is accepted and nothing is recorded")
    func noSessionAcceptsAll() {
        var state = ClientSessionState()
        let answers = accept([5, 5], into: &state)
        #expect(answers == [true, true])
        #expect(state.lastSeq.isEmpty)
    }

    @Test("a seq already delivered is a duplicate and is dropped")
    func duplicatesAreDropped() {
        var state = resumable()
        let answers = accept([1, 2, 2, 1, 3], into: &state)
        #expect(answers == [true, true, false, false, true])
    }

    @Test("during a resume a gap in seq is reported lost; outside one it is not")
    func gapsDuringAResumeAreLost() {
        var state = resumable()
        let before = accept([1, 4], into: &state)
        #expect(before == [true, true])
        #expect(state.lost.isEmpty)
        state.phase = .settling
        let during = accept([9], into: &state)
        #expect(during == [true])
        #expect(state.lost == [VMLostRange(subscription: "sub-1", fromSeq: 5, toSeq: 8)])
    }

    @Test("an overflow during a resume is reported once, and the value after it is no gap")
    func overflowDuringAResume() {
        var state = resumable()
        let before = accept([3], into: &state)
        #expect(before == [true])
        state.phase = .settling
        state.observeOverflow(subscription: "sub-1", range: 4...10)
        let after = accept([11], into: &state)
        #expect(after == [true])
        #expect(state.lost == [VMLostRange(subscription: "sub-1", fromSeq: 4, toSeq: 10)])
    }

    @Test("reset forgets the session and its seqs")
    func resetForgets() {
        var state = resumable()
        state.wanted = true
        let answers = accept([3], into: &state)
        #expect(answers == [true])
        state.reset()
        #expect(!state.isResumable)
        #expect(state.lastSeq.isEmpty)
        #expect(state.wanted, "the client still wants a session on the next connection")
    }
}
