import JSONCore
import Testing
import VMTestSupport

/// Every catalog view model driven as a client would, over each transport (the in-memory
/// server and the real `vmd` on its socket): exact replies, and exact `vm.output` sequences
/// (values, seq, replay marks) read back in the compact form of
/// ``RPCSession/describe(_:relativeTo:)``. Each test has a server (and a state directory) of
/// its own.
@Suite("The catalog over both transports", .offTheCooperativePool)
struct CatalogOverBothTransportsTests {
    // MARK: Counter

    @Test("Counter counts from start through increment, decrement, set and reset, with gap-free seqs", arguments: RPCTransport.allCases)
    func counterHappyPath(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (counter, sub) = try await session.create("Counter", args: ["start": 5])
        #expect(try await session.take(1, of: sub) == ["count=5 #1 replay"])

        #expect(try await session.send(counter, "increment")["result"] == .null)
        #expect(session.drain(sub) == ["count=6 #2"])
        try await session.send(counter, "increment", 3)
        #expect(session.drain(sub) == ["count=9 #3"])
        try await session.send(counter, "decrement")
        #expect(session.drain(sub) == ["count=8 #4"])
        try await session.send(counter, "decrement", 10)
        #expect(session.drain(sub) == ["count=-2 #5"])
        try await session.send(counter, "increment", .null)
        #expect(session.drain(sub) == ["count=-1 #6"])
        try await session.send(counter, "set", 42)
        #expect(session.drain(sub) == ["count=42 #7"])
        try await session.send(counter, "set", 42)
        #expect(session.drain(sub) == [], "setting the count it has publishes nothing")

        let reset = try await session.result("vm.execute", RPCSession.execute(counter, "reset"))
        #expect(reset == ["value": 0])
        #expect(session.drain(sub) == ["count=0 #8"])
        #expect(try await session.get(counter, "count") == 0)
    }

    @Test("a second connection's subscription replays the current count, or waits for the next with replay false", arguments: RPCTransport.allCases)
    func counterSubscribeReplay(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let owner = try await vmd.connect()
        let replaying = try await vmd.connect()
        let live = try await vmd.connect()
        defer { owner.close(); replaying.close(); live.close() }
        let (counter, _) = try await owner.create("Counter", args: ["start": 7], subscribe: false)
        try await owner.send(counter, "increment", 2)

        let replaySub = try #require(try await replaying.result("vm.subscribe", ["instance": .string(counter)])["subscription"]?.stringValue)
        #expect(try await replaying.take(1, of: replaySub) == ["count=9 #1 replay"])
        let liveSub = try #require(try await live.result("vm.subscribe", ["instance": .string(counter), "replay": false])["subscription"]?.stringValue)

        try await owner.send(counter, "decrement")
        #expect(try await replaying.take(1, of: replaySub) == ["count=8 #2"])
        #expect(try await live.take(1, of: liveSub) == ["count=8 #1"])
        #expect(owner.drain("") == [], "the owner did not subscribe")
    }

    @Test("a string sent to Counter's set is invalidValue with path, expected and got; the count is kept", arguments: RPCTransport.allCases)
    func counterInvalidValue(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (counter, sub) = try await session.create("Counter", args: ["start": 1])
        #expect(try await session.take(1, of: sub) == ["count=1 #1 replay"])

        let reply = try await session.send(counter, "set", "ten")
        #expect(reply.errorCodeAndName == (-31006, "invalidValue"))
        let data = reply["error"]?["data"]
        #expect(data?["path"] == "")
        #expect(data?["expected"] == "integer")
        #expect(data?["got"] == "string")
        #expect(reply["error"]?["message"]?.stringValue?.contains("set") == true)

        // Fire and forget: the same failure comes back as vm.error.
        try await session.notify("vm.send", ["instance": .string(counter), "input": "set", "value": "ten"])
        let errors = try await session.take(1, of: sub)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("vm.error ") == true)
        #expect(errors.first?.contains(#""name":"invalidValue""#) == true)
        #expect(try await session.get(counter, "count") == 1)
        #expect(session.drain(sub) == [])

        let badArgs = try await session.call("vm.create", ["type": "Counter", "args": ["start": "five"]])
        #expect(badArgs.errorCodeAndName == (-31006, "invalidValue"))
        #expect(badArgs["error"]?["data"]?["path"] == "/start")
    }

    // MARK: Login

    @Test("Login: validity of email and password flips isLoginAllowed; submit is refused while invalid", arguments: RPCTransport.allCases)
    func loginValidation(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (login, sub) = try await session.create("Login", args: ["latencyMs": 20])
        #expect(try await session.take(2, of: sub) == ["isLoginAllowed=false #1 replay", "isLoading=false #2 replay"])

        let refused = try await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(refused.errorCodeAndName == (-31007, "actionNotEnabled"))
        try await session.send(login, "email", "demo@example.com")
        #expect(session.drain(sub) == [], "a password is still missing")
        try await session.send(login, "password", "secret")
        #expect(session.drain(sub) == ["isLoginAllowed=true #3"])
        try await session.send(login, "password", "short")
        #expect(session.drain(sub) == ["isLoginAllowed=false #4"])
        try await session.send(login, "password", "secret")
        #expect(session.drain(sub) == ["isLoginAllowed=true #5"])
        try await session.send(login, "email", "not an address")
        #expect(session.drain(sub) == ["isLoginAllowed=false #6"])
        let stillRefused = try await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(stillRefused.errorCodeAndName == (-31007, "actionNotEnabled"))
        #expect(session.drain(sub) == [], "a refused submit does not start loading")
        #expect(try await session.get(login, "isLoginAllowed") == false)
    }

    @Test("Login with the demo account: isLoading true, loginSuccess, isLoading false, then the result", arguments: RPCTransport.allCases)
    func loginSuccess(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (login, sub) = try await Self.filledLogin(session, password: "secret", latencyMs: 20)

        let reply = try await session.result("vm.execute", RPCSession.execute(login, "submit"))
        #expect(reply == ["value": "demo@example.com"])
        #expect(session.drain(sub) == ["isLoading=true #4", #"loginSuccess="demo@example.com" #5"#, "isLoading=false #6"])
        #expect(try await session.get(login, "isLoading") == false)
    }

    @Test("Login with a wrong password fails with a readable actionFailed and a loginFailure event", arguments: RPCTransport.allCases)
    func loginWrongPassword(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (login, sub) = try await Self.filledLogin(session, password: "wrong!!", latencyMs: 20)

        let reply = try await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(reply.errorCodeAndName == (-31008, "actionFailed"))
        #expect(reply["error"]?["data"]?["error"]?["message"] == "Wrong email or password.")
        #expect(reply["error"]?["message"]?.stringValue?.contains("Wrong email or password.") == true)
        // Same order as on success: the outcome (loginFailure), then isLoading false.
        #expect(session.drain(sub) == ["isLoading=true #4", #"loginFailure="Wrong email or password." #5"#, "isLoading=false #6"])
        // The form is still valid: submitting again is allowed (and fails the same way).
        #expect(try await session.call("vm.execute", RPCSession.execute(login, "submit")).errorCodeAndName == (-31008, "actionFailed"))
    }

    @Test("a second submit while the first runs is actionNotEnabled; the first still succeeds, once", arguments: RPCTransport.allCases)
    func loginOneSubmitAtATime(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (login, sub) = try await Self.filledLogin(session, password: "secret", latencyMs: 300)

        let first = try await session.request("vm.execute", RPCSession.execute(login, "submit"))
        let second = try await session.call("vm.execute", RPCSession.execute(login, "submit"))
        #expect(second.errorCodeAndName == (-31007, "actionNotEnabled"))
        // Meanwhile the instance answers other calls at once (O7).
        #expect(try await session.get(login, "isLoading") == true)
        let firstReply = try await session.response(to: first)
        #expect(firstReply["result"] == ["value": "demo@example.com"])
        #expect(session.drain(sub) == ["isLoading=true #4", #"loginSuccess="demo@example.com" #5"#, "isLoading=false #6"])
    }

    /// A Login with the demo email and `password` typed, its replay and validity read.
    private static func filledLogin(_ session: RPCSession, password: String, latencyMs: Int64) async throws -> (String, String) {
        let (login, sub) = try await session.create("Login", args: ["latencyMs": .integer(latencyMs)])
        #expect(try await session.take(2, of: sub) == ["isLoginAllowed=false #1 replay", "isLoading=false #2 replay"])
        try await session.send(login, "email", "demo@example.com")
        try await session.send(login, "password", .string(password))
        #expect(session.drain(sub) == ["isLoginAllowed=true #3"])
        return (login, sub)
    }

    // MARK: Follow

    @Test("Follow's initial load is delivered through create+subscribe, nothing lost; toggle flips it", arguments: RPCTransport.allCases)
    func followLoadAndToggle(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (follow, sub) = try await session.create("Follow", args: ["userId": "ada", "initial": true, "latencyMs": 20])
        let start = try await session.takeThrough(of: sub) { Self.isOutput($0, "isLoading", false, live: true) }
        #expect(start == ["isFollowing=false #1 replay", "isLoading=true #2 replay", "isFollowing=true #3", "isLoading=false #4"])

        let off = try await session.result("vm.execute", RPCSession.execute(follow, "toggle"))
        #expect(off == ["value": false])
        #expect(session.drain(sub) == ["isLoading=true #5", "isFollowing=false #6", "isLoading=false #7"])
        let on = try await session.result("vm.execute", RPCSession.execute(follow, "toggle"))
        #expect(on == ["value": true])
        #expect(session.drain(sub) == ["isLoading=true #8", "isFollowing=true #9", "isLoading=false #10"])
        #expect(try await session.get(follow, "isFollowing") == true)
    }

    @Test("toggle is refused while the initial load runs, and while another toggle runs", arguments: RPCTransport.allCases)
    func followRapidToggles(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (follow, sub) = try await session.create("Follow", args: ["initial": false, "latencyMs": 150])
        let early = try await session.call("vm.execute", RPCSession.execute(follow, "toggle"))
        #expect(early.errorCodeAndName == (-31007, "actionNotEnabled"), "the state is not known yet")
        let loaded = try await session.takeThrough(of: sub) { Self.isOutput($0, "isLoading", false, live: true) }
        #expect(loaded == ["isFollowing=false #1 replay", "isLoading=true #2 replay", "isLoading=false #3"],
                "a first answer equal to the initial state publishes no change")

        let first = try await session.request("vm.execute", RPCSession.execute(follow, "toggle"))
        let second = try await session.call("vm.execute", RPCSession.execute(follow, "toggle"))
        #expect(second.errorCodeAndName == (-31007, "actionNotEnabled"))
        #expect(try await session.response(to: first)["result"] == ["value": true])
        #expect(session.drain(sub) == ["isLoading=true #4", "isFollowing=true #5", "isLoading=false #6"])
    }

    @Test("with failEvery, a failed toggle is a failure event and actionFailed; isLoading ends; the next toggle works", arguments: RPCTransport.allCases)
    func followFailure(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        // Call 1 (the load) succeeds, call 2 (the first toggle) fails, call 3 succeeds.
        let (follow, sub) = try await session.create("Follow", args: ["initial": true, "latencyMs": 0, "failEvery": 2])
        let loaded = try await session.takeThrough(of: sub) { Self.isOutput($0, "isLoading", false, live: true) }
        #expect(loaded == ["isFollowing=false #1 replay", "isLoading=true #2 replay", "isFollowing=true #3", "isLoading=false #4"])

        let failed = try await session.call("vm.execute", RPCSession.execute(follow, "toggle"))
        #expect(failed.errorCodeAndName == (-31008, "actionFailed"))
        let message = try #require(failed["error"]?["data"]?["error"]?["message"]?.stringValue)
        #expect(message.contains("did not answer"))
        // As with Login and as on success: the failure event, then isLoading ends.
        #expect(session.drain(sub) == ["isLoading=true #5", "failure=\(JSONValue.string(message).encodedString()) #6", "isLoading=false #7"])
        #expect(try await session.get(follow, "isLoading") == false)
        #expect(try await session.get(follow, "isFollowing") == true, "a failed call leaves the state as it was")

        #expect(try await session.result("vm.execute", RPCSession.execute(follow, "toggle")) == ["value": false])
        #expect(session.drain(sub) == ["isLoading=true #8", "isFollowing=false #9", "isLoading=false #10"])
    }

    /// Whether `message` is a `vm.output` of `output` with `value` (live, or replayed).
    private static func isOutput(_ message: JSONValue, _ output: String, _ value: JSONValue, live: Bool) -> Bool {
        guard message["method"] == "vm.output", let params = message["params"] else { return false }
        return params["output"]?.stringValue == output && params["value"] == value && (params["replay"] == nil) == live
    }

    // MARK: TextField

    @Test("TextField: type and set both flow into text; length follows; repeats publish nothing", arguments: RPCTransport.allCases)
    func textField(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (field, sub) = try await session.create("TextField")
        #expect(try await session.take(2, of: sub) == [#"text="" #1 replay"#, "length=0 #2 replay"])

        try await session.send(field, "type", "hi")
        #expect(session.drain(sub) == [#"text="hi" #3"#, "length=2 #4"])
        try await session.send(field, "set", "hi")
        try await session.send(field, "type", "hi")
        #expect(session.drain(sub) == [], "the same text again, by either source, is not repeated")
        try await session.send(field, "set", "hello")
        #expect(session.drain(sub) == [#"text="hello" #5"#, "length=5 #6"])
        try await session.send(field, "type", "world")
        #expect(session.drain(sub) == [#"text="world" #7"#], "same length: length is not repeated")
        try await session.send(field, "set", "🇫🇷")
        #expect(session.drain(sub) == [#"text="🇫🇷" #8"#, "length=1 #9"])
        #expect(try await session.get(field, "text") == "🇫🇷")
        #expect(try await session.get(field, "length") == 1)
        #expect(try await session.send(field, "type", 5).errorCodeAndName == (-31006, "invalidValue"))
    }

    // MARK: SendList

    @Test("SendList: recipients and message decide canSend; blank or empty lists cannot send", arguments: RPCTransport.allCases)
    func sendListEditing(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (list, sub) = try await session.create("SendList")
        #expect(try await session.take(3, of: sub) == ["recipients=[] #1 replay", "canSend=false #2 replay", "isSending=false #3 replay"])

        try await session.send(list, "addRecipient", "  ada@example.com ")
        #expect(session.drain(sub) == [#"recipients=["ada@example.com"] #4"#])
        try await session.send(list, "addRecipient", "ada@example.com")
        #expect(session.drain(sub) == [], "a recipient already listed is not added twice")
        try await session.send(list, "addRecipient", "bob@example.com")
        #expect(session.drain(sub) == [#"recipients=["ada@example.com","bob@example.com"] #5"#])
        try await session.send(list, "removeRecipient", "nobody@example.com")
        #expect(session.drain(sub) == [])
        try await session.send(list, "message", "   ")
        #expect(session.drain(sub) == [], "a blank message cannot be sent")
        #expect(try await session.call("vm.execute", RPCSession.execute(list, "send")).errorCodeAndName == (-31007, "actionNotEnabled"))
        try await session.send(list, "message", "Hello")
        #expect(session.drain(sub) == ["canSend=true #6"])
        try await session.send(list, "removeRecipient", " bob@example.com")
        #expect(session.drain(sub) == [#"recipients=["ada@example.com"] #7"#])
        try await session.send(list, "removeRecipient", "ada@example.com")
        // recipients is published before the canSend derived from it.
        #expect(session.drain(sub) == ["recipients=[] #8", "canSend=false #9"])
        #expect(try await session.send(list, "addRecipient", "   ").errorCodeAndName == (-31006, "invalidValue"))
        #expect(session.drain(sub) == [])
    }

    @Test("SendList's send navigates to a SendReceipt child that vm.list, vm.get and the parent's destruction know", arguments: RPCTransport.allCases)
    func sendListSendAndChild(over transport: RPCTransport) async throws {
        let vmd = try await transport.start()
        defer { vmd.stop() }
        let session = try await vmd.connect()
        let watcher = try await vmd.connect()
        defer { session.close(); watcher.close() }
        let (list, sub) = try await session.create("SendList")
        #expect(try await session.take(3, of: sub).count == 3)
        try await session.send(list, "addRecipient", "ada@example.com")
        try await session.send(list, "addRecipient", "bob@example.com")
        try await session.send(list, "message", "Hello")
        #expect(session.drain(sub).count == 3)

        let sent = try await session.result("vm.execute", RPCSession.execute(list, "send"))
        let receipt = try #require(sent["value"]?["instance"]?.stringValue)
        #expect(sent == ["value": ["uploadId": 1, "type": "SendReceipt", "instance": .string(receipt)]])
        #expect(session.drain(sub) == [
            "isSending=true #7",
            #"navigate={"type":"SendReceipt","instance":"\#(receipt)"} #8"#,
            "isSending=false #9",
        ])

        let instances = try await session.result("vm.list", [:])["instances"]
        #expect(instances == [
            ["instance": .string(list), "type": "SendList", "scope": "daemon", "subscribers": 1],
            ["instance": .string(receipt), "type": "SendReceipt", "scope": "daemon", "subscribers": 0, "parent": .string(list)],
        ])
        #expect(try await session.get(receipt, "uploadId") == 1)
        #expect(try await session.get(receipt, "message") == "Hello")
        #expect(try await session.get(receipt, "recipients") == ["ada@example.com", "bob@example.com"])

        // The client presents the scene by subscribing to it.
        let receiptSub = try #require(try await watcher.result("vm.subscribe", ["instance": .string(receipt)])["subscription"]?.stringValue)
        #expect(try await watcher.take(3, of: receiptSub) == [
            "uploadId=1 #1 replay", #"message="Hello" #2 replay"#, #"recipients=["ada@example.com","bob@example.com"] #3 replay"#,
        ])

        #expect(try await session.result("vm.destroy", ["instance": .string(list)]) == ["destroyed": true])
        #expect(session.drain(sub) == ["closed destroyed"])
        #expect(try await watcher.take(1, of: receiptSub) == ["closed parentDestroyed"])
        #expect(try await session.result("vm.list", [:]) == ["instances": []])
        #expect(try await session.call("vm.get", ["instance": .string(receipt), "output": "message"]).errorCodeAndName == (-31002, "unknownInstance"))
    }
    @Test("a send the store cannot keep fails with actionFailed, announces nothing and keeps the list")
    func sendListStoreFailure() async throws {
        // The state directory would be inside a device file: it cannot be made.
        let vmd = try await SocketDaemon.start(stateDirectory: "/dev/null/state")
        defer { vmd.stop() }
        let session = try await vmd.connect()
        defer { session.close() }
        let (list, sub) = try await session.create("SendList")
        #expect(try await session.take(3, of: sub).count == 3)
        try await session.send(list, "addRecipient", "ada@example.com")
        try await session.send(list, "message", "Hello")
        #expect(session.drain(sub) == [#"recipients=["ada@example.com"] #4"#, "canSend=true #5"])

        let reply = try await session.call("vm.execute", RPCSession.execute(list, "send"))
        #expect(reply.errorCodeAndName == (-31008, "actionFailed"))
        let message = try #require(reply["error"]?["data"]?["error"]?["message"]?.stringValue)
        #expect(message.contains("Nothing was stored"), "\(message)")
        #expect(session.drain(sub) == ["isSending=true #6", "isSending=false #7"], "no navigate")
        #expect(try await session.result("vm.list", [:])["instances"]?.arrayValue?.count == 1, "no receipt was opened")
        #expect(try await session.get(list, "recipients") == ["ada@example.com"])
        #expect(try await session.get(list, "canSend") == true)
    }
}
