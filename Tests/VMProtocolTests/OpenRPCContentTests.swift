import Foundation
import Testing
import VMProtocol

/// The wire contract v1 as Protocol/PROTOCOL.md specifies it; the document must say exactly this.
enum ContractV1 {
    static let methods = [
        "daemon.info", "daemon.shutdown", "daemon.monitor", "daemon.unmonitor", "rpc.discover",
        "vm.types", "vm.create", "vm.destroy", "vm.list", "vm.send", "vm.execute", "vm.get", "vm.tape",
        "vm.subscribe", "vm.unsubscribe", "session.open", "session.resume", "session.close",
    ]

    static let notifications = [
        "vm.output", "vm.closed", "vm.overflow", "vm.error", "vm.progress", "daemon.message", "$/cancelRequest",
    ]

    /// The codes and names of VMProtocol's one error table, ``VMErrorCode``, in its order.
    static let errors: [(code: Int, name: String)] = VMErrorCode.allCases.map { (code: $0.number, name: $0.name) }
}

@Suite("The OpenRPC document's content")
struct OpenRPCContentTests {
    let document: [String: Any]
    let methods: [[String: Any]]

    init() throws {
        document = try ProtocolFiles.document()
        methods = document["methods"] as? [[String: Any]] ?? []
    }

    private func method(_ name: String) throws -> [String: Any] {
        try #require(methods.first { $0["name"] as? String == name }, "no method \(name)")
    }

    @Test("lists exactly the methods of the contract, in the contract's order")
    func methodsAreTheContract() {
        #expect(methods.compactMap { $0["name"] as? String } == ContractV1.methods)
    }

    @Test("gives every method by-name params, a result schema, errors and a summary",
          arguments: ContractV1.methods)
    func everyMethodIsComplete(name: String) throws {
        let method = try method(name)
        #expect(method["paramStructure"] as? String == "by-name")
        let params = try #require(method["params"] as? [[String: Any]])
        for param in params {
            #expect(param["name"] is String)
            #expect(param["schema"] is [String: Any])
            #expect(param["required"] is Bool)
        }
        let result = try #require(method["result"] as? [String: Any])
        #expect(result["schema"] is [String: Any])
        let errors = try #require(method["errors"] as? [[String: Any]])
        #expect(!errors.isEmpty)
        #expect(!((method["summary"] as? String) ?? "").isEmpty)
        #expect(!((method["description"] as? String) ?? "").isEmpty)
    }

    @Test("uses only example params that the method declares", arguments: ContractV1.methods)
    func examplesUseDeclaredParams(name: String) throws {
        let method = try method(name)
        let declared = Set((method["params"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        for example in method["examples"] as? [[String: Any]] ?? [] {
            for param in example["params"] as? [[String: Any]] ?? [] {
                let paramName = try #require(param["name"] as? String)
                #expect(declared.contains(paramName), "\(name) example uses undeclared \(paramName)")
            }
            #expect(example["result"] is [String: Any])
        }
    }

    @Test("resolves every $ref inside the document")
    func everyReferenceResolves() {
        let references = JSONTree.references(in: document)
        #expect(references.count > 50)
        for reference in references {
            #expect(JSONTree.resolve(reference.target, in: document) != nil,
                    "\(reference.path): \(reference.target) does not resolve")
        }
    }

    @Test("describes every notification with a direction and a params schema")
    func everyNotificationHasASchema() throws {
        let notifications = try #require(document["x-notifications"] as? [[String: Any]])
        #expect(notifications.compactMap { $0["name"] as? String } == ContractV1.notifications)
        for notification in notifications {
            let name = notification["name"] as? String ?? "?"
            let params = try #require(notification["params"] as? [String: Any], "\(name) has no params")
            let target = try #require(params["$ref"] as? String)
            let schema = try #require(JSONTree.resolve(target, in: document) as? [String: Any])
            #expect(schema["type"] as? String == "object", "\(name)")
            #expect(schema["required"] is [String], "\(name)")
            let direction = notification["direction"] as? String
            #expect(direction == (name == "$/cancelRequest" ? "clientToDaemon" : "daemonToClient"))
        }
    }

    @Test("has the error codes and names of the contract table, and nothing else")
    func errorCodesMatchTheContract() throws {
        let components = try #require(document["components"] as? [String: Any])
        let errors = try #require(components["errors"] as? [String: [String: Any]])
        #expect(errors.count == ContractV1.errors.count)
        for (code, name) in ContractV1.errors {
            let error = try #require(errors[name], "missing \(name)")
            #expect(error["code"] as? Int == code, "\(name)")
            let data = try #require(error["data"] as? [String: Any])
            #expect(data["name"] as? String == name)
            #expect(!((error["message"] as? String) ?? "").isEmpty)
        }
        let schemas = try #require(components["schemas"] as? [String: Any])
        let errorName = try #require(schemas["ErrorName"] as? [String: Any])
        #expect(errorName["enum"] as? [String] == ContractV1.errors.map(\.name))
    }

    @Test("keeps application codes in -31099...-31000, outside JSON-RPC's reserved band")
    func applicationCodesAreInTheirRange() {
        // -32800 is LSP's RequestCancelled, reused as is so LSP libraries recognise it.
        for (code, name) in ContractV1.errors where !(-32768 ... -32000).contains(code) && code != -32800 {
            #expect((-31099 ... -31000).contains(code), "\(name)")
        }
        let standard = ContractV1.errors.filter { (-32768 ... -32000).contains($0.code) }
        #expect(standard.count == 5)
    }
}
