import JSONCore
import Testing
import VMTestSupport

/// `session.resume` must be a connection's first request (PROTOCOL.md §18; issue 31), over the
/// real socket with the real vmd.
@Suite("session.resume only as a connection's first request")
struct SessionResumeFirstTests {
    @Test("a resume after another request on the same connection is refused with invalidRequest, and a fresh connection still resumes")
    func resumeAfterAnotherRequestIsRefused() async throws {
        let vmd = try SessionResumeTests.Running([])
        defer { vmd.stop() }
        let owner = try vmd.session()
        let (name, token) = try await SessionResumeTests.open(owner)
        owner.close()
        try vmd.waitForLog("session \(name) detached from")

        let late = try vmd.session()
        defer { late.close() }
        try await late.result("daemon.info")
        let refused = try await late.call("session.resume", ["token": .string(token)])
        #expect(refused.errorCodeAndName == (-32600, "invalidRequest"))
        #expect(refused["error"]?["message"]?.stringValue?.contains("first thing a connection does") == true)

        let fresh = try vmd.session()
        defer { fresh.close() }
        #expect(try await fresh.result("session.resume", ["token": .string(token)])["session"]?.stringValue == name)
    }
}
