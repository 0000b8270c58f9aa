import JSONCore
import Testing
import VMProtocol
import ViewModelCatalog
import ViewModelKit

/// The kit writes `vm.types`' descriptions (it cannot import VMProtocol); clients read them with
/// `VMTypesMethod.TypeDescription`, whose own encoding must be the kit's byte for byte.
@Suite("Type descriptions: the kit's encoding and the protocol's type agree")
struct TypeDescriptionWireTests {
    @Test("every catalog and test type decodes as the protocol's type and encodes back to the same bytes")
    func sameBytes() throws {
        var registry = try testRegistry()
        try Catalog.register(into: &registry, configuration: CatalogConfiguration(stateDirectory: "/nonexistent/vmd-type-descriptions"))
        #expect(registry.types.count > 4)
        for type in registry.types {
            let decoded = try VMTypesMethod.TypeDescription(json: type.jsonValue)
            #expect(decoded.name == type.name)
            #expect(decoded.jsonValue.encodedString() == type.jsonValue.encodedString(), "\(type.name)")
        }
    }

    @Test("a vm.types result decodes to its descriptions in order")
    func wholeResult() throws {
        let registry = try testRegistry()
        let result = VMTypesMethod.result(types: registry.types.map(\.jsonValue))
        #expect(try VMTypesMethod.decodeResult(result).map(\.name) == registry.types.map(\.name))
    }
}
