import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("SendList: a list edited by scan, a durable send, then a receipt scene")
struct SendListTests {
    private func makeSendList(store: any SendStore = MemorySendStore(), uploadMs: Int = 0, scheduler: TestScheduler) -> ViewModelHarness<SendList> {
        ViewModelHarness(SendList.self, args: SendList.Arguments(uploadMs: uploadMs), services: store, scheduler: scheduler)
    }

    @Test("recipients are added and removed, trimmed, without duplicates, publishing changes only")
    func editsTheList() {
        let scheduler = TestScheduler()
        let list = makeSendList(scheduler: scheduler)
        let recipients = list.record(\.recipients)
        scheduler.scheduleAt(10) { list.send(\.addRecipient, "ada@example.com") }
        scheduler.scheduleAt(20) { list.send(\.addRecipient, "  bob@example.com ") }
        scheduler.scheduleAt(30) { list.send(\.addRecipient, "ada@example.com") }
        scheduler.scheduleAt(40) { list.send(\.removeRecipient, "cy@example.com") }
        scheduler.scheduleAt(50) { list.send(\.removeRecipient, " ada@example.com") }
        scheduler.scheduleAt(60) { list.send(\.addRecipient, "ada@example.com") }
        scheduler.start()
        #expect(recipients.events == [
            .next(0, []),
            .next(10, ["ada@example.com"]),
            .next(20, ["ada@example.com", "bob@example.com"]),
            .next(50, ["bob@example.com"]),
            .next(60, ["bob@example.com", "ada@example.com"]),
        ])
    }

    @Test("canSend needs a recipient and a message that is not blank")
    func validation() {
        let list = makeSendList(scheduler: TestScheduler())
        let canSend = list.record(\.canSend)
        list.send(\.message, "Hello")
        list.send(\.addRecipient, "ada")
        list.send(\.message, "   ")
        list.send(\.message, "Hi")
        list.send(\.removeRecipient, "ada")
        #expect(canSend.values == [false, true, false, true, false])
        #expect(list.execute(\.send, SendRequest()).error as? ActionError == .notEnabled)
    }

    @Test("send uploads, then opens a SendReceipt and announces it on navigate")
    func happyPath() async throws {
        let scheduler = TestScheduler()
        let store = MemorySendStore()
        let list = makeSendList(store: store, scheduler: scheduler)
        let isSending = list.record(\.isSending)
        let navigate = list.record(\.navigate)
        list.send(\.addRecipient, "ada@example.com")
        list.send(\.addRecipient, "bob@example.com")
        list.send(\.message, "Dinner at 8?")
        scheduler.advance(to: 10)
        let send = list.execute(\.send, SendRequest())
        #expect(navigate.events.isEmpty)
        await list.settle()
        let receipt = Navigation(type: "SendReceipt", instance: "sendreceipt-1")
        #expect(isSending.events == [.next(0, false), .next(10, true), .next(10, false)])
        #expect(navigate.events == [.next(10, receipt)])
        #expect(send.values == [SendResult(uploadId: 1, navigation: receipt)])
        #expect(send.isCompleted)
        #expect(list.openedChildren == [.init(
            type: "SendReceipt",
            args: ["uploadId": 1, "message": "Dinner at 8?", "recipients": ["ada@example.com", "bob@example.com"]],
            id: "sendreceipt-1")])
        #expect(await store.stored == [Upload(id: 1, message: "Dinner at 8?", recipients: ["ada@example.com", "bob@example.com"])])
    }

    @Test("a failed upload fails send with the store's message: no navigate, no child, the list stays")
    func failedUpload() async throws {
        let scheduler = TestScheduler()
        let store = MemorySendStore()
        await store.fail(true)
        let list = makeSendList(store: store, scheduler: scheduler)
        let navigate = list.record(\.navigate)
        let isSending = list.record(\.isSending)
        let recipients = list.record(\.recipients)
        list.send(\.addRecipient, "ada")
        list.send(\.message, "Hello")
        let send = list.execute(\.send, SendRequest())
        await list.settle()
        let error = try #require(send.error as? ActionError)
        #expect(error.failureMessage == "The store is down; nothing was stored.")
        #expect(navigate.values.isEmpty)
        #expect(list.openedChildren.isEmpty)
        #expect(isSending.values == [false, true, false])
        #expect(recipients.values == [[], ["ada"]])
        #expect(await store.stored.isEmpty)
    }

    @Test("a second send while the first runs is not enabled; one upload is stored")
    func oneSendAtATime() async {
        let scheduler = TestScheduler()
        let store = MemorySendStore()
        let list = makeSendList(store: store, scheduler: scheduler)
        list.send(\.addRecipient, "ada")
        list.send(\.message, "Hello")
        let first = list.execute(\.send, SendRequest())
        let second = list.execute(\.send, SendRequest())
        #expect(second.error as? ActionError == .notEnabled)
        await list.settle()
        #expect(first.values.map(\.uploadId) == [1])
        let third = list.execute(\.send, SendRequest())
        await list.settle()
        #expect(third.values.map(\.navigation.instance) == ["sendreceipt-2"])
        #expect(await store.stored.map(\.id) == [1, 2])
    }

    @Test("with the file store, an acknowledged send is on disk before navigate")
    func sendsToTheFile() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let scheduler = TestScheduler()
        let store = FileSendStore(stateDirectory: dir.path)
        let list = makeSendList(store: store, scheduler: scheduler)
        var onDiskAtNavigate: String?
        list.ports.navigate.subscribe(onNext: { _ in onDiskAtNavigate = dir.contents(of: FileSendStore.fileName) }).disposed(by: list.bag)
        list.send(\.addRecipient, "ada")
        list.send(\.message, "Hello")
        list.execute(\.send, SendRequest())
        await list.settle()
        #expect(onDiskAtNavigate == #"{"id":1,"message":"Hello","recipients":["ada"]}"# + "\n")
    }

    @Test("a recipient must have something other than spaces, on the wire")
    func recipientSchema() throws {
        let schema = try JSONSchema(SendList.recipientCodec.schema)
        #expect(schema.isValid("ada"))
        #expect(schema.isValid(" ada "))
        #expect(!schema.isValid(""))
        #expect(!schema.isValid("   "))
        #expect(!schema.isValid(.string(String(repeating: "a", count: 255))))
    }

    @Test("with uploadMs, send reports the upload's progress in percent on virtual time, before its result")
    func sendReportsUploadProgress() async throws {
        let scheduler = TestScheduler()
        let list = makeSendList(uploadMs: 1000, scheduler: scheduler)
        let isSending = list.record(\.isSending)
        list.send(\.addRecipient, "ada@example.com")
        list.send(\.message, "Hello")
        var progress: [Recorded<String>] = []
        var results: [Recorded<SendResult>] = []
        scheduler.scheduleAt(100) {
            _ = list.ports.send.execute(SendRequest(), onProgress: { report in
                progress.append(Recorded(time: scheduler.clock, value: "\(Int(report.completed))/\(Int(report.total ?? 0)) \(report.message ?? "")"))
            }).subscribe(onNext: { results.append(Recorded(time: scheduler.clock, value: $0)) })
        }
        scheduler.advance(to: 1100)
        #expect(progress.map(\.time) == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100])
        #expect(progress.first?.value == "0/100 uploading")
        #expect(progress.dropFirst().dropLast().map(\.value) == (1...9).map { "\($0 * 10)/100 uploading" })
        #expect(progress.last?.value == "100/100 uploaded")
        #expect(results.isEmpty)
        await list.settle()
        #expect(results.map(\.time) == [1100])
        #expect(results.first?.value.uploadId == 1)
        #expect(isSending.events == [.next(0, false), .next(100, true), .next(1100, false)])
        #expect(progress.count == 11)
    }

    @Test("without uploadMs, send reports no progress")
    func sendWithoutUploadReportsNothing() async throws {
        let scheduler = TestScheduler()
        let list = makeSendList(scheduler: scheduler)
        list.send(\.addRecipient, "ada@example.com")
        list.send(\.message, "Hello")
        var reports = 0
        let send = list.ports.send.execute(SendRequest(), onProgress: { _ in reports += 1 }).subscribe(onNext: { _ in })
        await settle(scheduler)
        send.dispose()
        #expect(reports == 0)
    }

    @Test("vm.types describes SendList and SendReceipt completely")
    func descriptions() throws {
        let recipient = #"{"type":"string","minLength":1,"maxLength":254,"pattern":"\\S"}"#
        let request = #"{"description":"null (or omitted) to send; {\"key\": K} to send at most once per key K, also across daemon restarts: a retry with a stored key answers with the first upload's id.","type":["null","object"],"properties":{"key":{"type":"string","minLength":1,"maxLength":128,"description":"An idempotency key the client chose: a send with a key already stored is answered with that upload instead of storing it again."}},"required":["key"],"additionalProperties":false}"#
        let summary = #"Upload the message and recipients, then open a SendReceipt scene. Pass {\"key\": K} to send at most once per key K (a retry after a lost answer or a daemon restart answers with the first upload)."#
        #expect(try describe(SendList.self) == """
        {"name":"SendList","summary":"A sending list: recipients and a message, uploaded to a store, then a receipt scene.",\
        "args":{"type":"object","properties":{"uploadMs":{"type":"integer","minimum":0,"maximum":600000,"default":0}},"additionalProperties":false},\
        "inputs":[\
        {"name":"addRecipient","summary":"Add a recipient (surrounding spaces are ignored).","schema":\(recipient)},\
        {"name":"removeRecipient","summary":"Remove a recipient (surrounding spaces are ignored).","schema":\(recipient)},\
        {"name":"message","summary":"The message to send.","schema":{"type":"string"}}],\
        "outputs":[\
        {"name":"recipients","summary":"The recipients, in the order they were added.","kind":"state","schema":{"type":"array","items":{"type":"string"}}},\
        {"name":"canSend","summary":"There is at least one recipient and the message is not blank.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"isSending","summary":"send is running.","kind":"state","schema":{"type":"boolean"}},\
        {"name":"navigate","summary":"A scene to present after a successful send: {type, instance}.","kind":"event",\
        "schema":{"type":"object","properties":{"type":{"type":"string"},"instance":{"type":"string","x-vmd-run-id":true}},"required":["type","instance"],"additionalProperties":false}}],\
        "actions":[{"name":"send","summary":"\(summary)","input":\(request),\
        "output":{"type":"object","properties":{"uploadId":{"type":"integer","minimum":1,"x-vmd-run-id":true},"type":{"type":"string"},"instance":{"type":"string","x-vmd-run-id":true}},\
        "required":["uploadId","type","instance"],"additionalProperties":false}}]}
        """)
        #expect(try describe(SendReceipt.self) == """
        {"name":"SendReceipt","summary":"What a SendList sent: the upload's id, its message and its recipients.",\
        "args":{"type":"object","properties":{"uploadId":{"type":"integer","minimum":1},"message":{"type":"string"},\
        "recipients":{"type":"array","items":{"type":"string"}}},"required":["uploadId","message","recipients"],"additionalProperties":false},\
        "inputs":[],\
        "outputs":[\
        {"name":"uploadId","summary":"The id the store gave the upload.","kind":"state","schema":{"type":"integer"}},\
        {"name":"message","summary":"The message that was sent.","kind":"state","schema":{"type":"string"}},\
        {"name":"recipients","summary":"Who it was sent to.","kind":"state","schema":{"type":"array","items":{"type":"string"}}}],\
        "actions":[]}
        """)
    }
}
