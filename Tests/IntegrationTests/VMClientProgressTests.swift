import JSONCore
import Testing
import VMClient
import VMProtocol

/// VMClient's long actions against vmd: progress as an AsyncSequence that ends with the reply,
/// cancellation, and the latest strategy.
@Suite("VMClient long actions against vmd")
struct VMClientProgressTests {
    /// A SendList `s` ready to send, uploading for `uploadMs`.
    private func readySendList(_ client: VMClient, uploadMs: Int64) async throws {
        _ = try await client.create(type: "SendList", id: "s", args: ["uploadMs": .integer(uploadMs)])
        try await client.send(instance: "s", input: "addRecipient", value: "ada@example.com")
        try await client.send(instance: "s", input: "message", value: "Hello")
    }

    @Test("startExecute's progress yields every report, then ends; value is the result")
    func progressSequenceEndsWithTheReply() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        try await readySendList(client, uploadMs: 200)
        let upload = client.startExecute(instance: "s", action: "send")
        var completed: [Double] = []
        for await step in upload.progress {
            #expect(step.instance == "s" && step.action == "send" && step.total == 100)
            completed.append(step.completed)
        }
        #expect(completed == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        let value = try await upload.value
        #expect((value["uploadId"]?.intValue ?? 0) >= 1)
    }

    @Test("cancel after the first progress: the sequence ends and value throws requestCancelled")
    func cancelEndsTheSequence() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        try await readySendList(client, uploadMs: 60_000)
        let upload = client.startExecute(instance: "s", action: "send")
        var seen = 0
        for await _ in upload.progress {
            seen += 1
            if seen == 1 { upload.cancel() }
        }
        #expect(seen == 1)
        await #expect(throws: VMClientError.self) { try await upload.value }
        do {
            _ = try await upload.value
        } catch VMClientError.remote(let remote) {
            #expect(remote.name == "requestCancelled")
        }
    }

    @Test("latest: the first of two searches throws actionSuperseded, the second returns its results")
    func latestSupersedes() async throws {
        let connected = try await ConnectedDaemon.start()
        defer { connected.stop() }
        let client = connected.client
        // A search takes 3 s, so the first is still running when the second is sent even on a
        // loaded machine (with 300 ms the first finished first under the full suite's load).
        _ = try await client.create(type: "Search", id: "q", args: ["latencyMs": 3000])
        let first = client.startExecute(instance: "q", action: "search", value: "berry")
        // The first search must run before the second is sent: wait (bounded) until it does.
        var polls = 0
        while try await client.get(instance: "q", output: "isSearching") != true, polls < 10_000 { polls += 1 }
        let second = try await client.execute(instance: "q", action: "search", value: "lemon")
        #expect(second == ["lemon"])
        do {
            _ = try await first.value
            Issue.record("the first search was not superseded")
        } catch VMClientError.remote(let remote) {
            #expect(remote.errorCode == .actionSuperseded)
        }
    }
}
