import Foundation
import JSONCore
import Testing
import VMProtocol

/// Protocol/ADDING-A-METHOD.md lists what a new method needs; these tests fail while any of it
/// is missing for a type of ``VMMethods/types``.
@Suite("Every method of the registry is complete: document, schemas, client, vmctl")
struct MethodRegistryTests {
    /// `DaemonInfoMethod` for `DaemonInfoMethod.self`.
    static func typeName(_ method: any VMMethod.Type) -> String { String(describing: method) }

    /// The text of `path`, relative to the repository's root.
    static func source(_ path: String) throws -> String {
        let url = ProtocolFiles.directory.deletingLastPathComponent().appendingPathComponent(path)
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test("the registry names openrpc.json's methods, in the document's order, each once")
    func registryIsTheDocument() throws {
        let methods = try ProtocolFiles.document()["methods"] as? [[String: Any]] ?? []
        #expect(VMMethods.all == methods.compactMap { $0["name"] as? String })
        #expect(Set(VMMethods.all).count == VMMethods.types.count)
    }

    @Test("every method has its generated params and result schemas", arguments: VMMethods.all)
    func schemaFiles(name: String) throws {
        for suffix in ["params", "result"] {
            let bytes = try ProtocolFiles.bytes("schemas/\(name).\(suffix).json")
            let schema = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            #expect(schema?["$id"] as? String == "urn:vmd:schema:\(name).\(suffix)")
        }
    }

    @Test("every method has a typed call in VMClient: a public one, or the client's own session handshake")
    func clientCalls() throws {
        let client = try Self.source("Sources/VMClient/VMClient+Methods.swift")
        let handshake = try Self.source("Sources/VMClient/ClientCore+Session.swift")
        let missing = VMMethods.types.filter { type in
            let name = "\(Self.typeName(type)).name"
            return !client.contains("call(\(name)") && !handshake.contains("(\(name),") && !handshake.contains("method: \(name),")
        }.map { $0.name }
        #expect(missing.isEmpty, "neither VMClient+Methods.swift nor ClientCore+Session.swift calls \(missing)")
    }

    @Test("every method has a row in vmctl's table of commands")
    func vmctlRows() throws {
        let table = try Self.source("Sources/vmctl/MethodCommands.swift")
        let missing = VMMethods.types.filter { !table.contains("Row(method: \(Self.typeName($0)).self") }.map { $0.name }
        #expect(missing.isEmpty, "MethodCommands.swift has no row for \(missing)")
    }

    @Test("PROTOCOL.md describes every method")
    func specification() throws {
        let text = try String(decoding: ProtocolFiles.bytes("PROTOCOL.md"), as: UTF8.self)
        let missing = VMMethods.all.filter { !text.contains("`\($0)") }
        #expect(missing.isEmpty, "PROTOCOL.md never names \(missing)")
    }
}

@Suite("The wire types' schemas are the generated files")
struct WireSchemaTests {
    @Test("each wire type's jsonSchema refers to a file of Protocol/schemas by its $id")
    func referencesResolve() throws {
        let types: [any JSONConvertible.Type] = [
            VMLimits.self, VMListMethod.Summary.self, VMTypesMethod.TypeDescription.self, DaemonInfoMethod.Result.self,
            DaemonMonitorMethod.Result.self, VMCreateMethod.Result.self, VMExecuteMethod.Result.self, VMGetMethod.Result.self,
            VMSubscribeMethod.Result.self,
        ]
        for type in types {
            let reference = try #require(type.jsonSchema["$ref"]?.stringValue, "\(type)")
            #expect(reference.hasPrefix(WireSchema.idPrefix))
            let name = String(reference.dropFirst(WireSchema.idPrefix.count))
            let bytes = try ProtocolFiles.bytes("schemas/\(name).json")
            let schema = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            #expect(schema?["$id"] as? String == reference, "\(type)")
        }
    }
}
