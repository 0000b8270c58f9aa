import Testing
@testable import JSONCore

/// A type named like a standard container, declared here.
private struct Array<Element>: Codable {
    var first: Element?
    init(from decoder: any Decoder) throws { first = nil }
    func encode(to encoder: any Encoder) throws {}
}

/// A recursive type nested in an extension of the standard `Array`: a named type, so its
/// recursion must be found at it (a container would be probed into itself forever).
extension Swift.Array {
    struct Link: Codable {
        var label: String
        var next: [Link]
    }
}

@Suite("The schema probe tells the standard containers apart by their names")
struct StandardContainerTests {
    @Test("Array, Set, Dictionary and Optional of any arguments are standard containers")
    func containers() {
        #expect(SchemaProbe.isStandardContainer([Int].self))
        #expect(SchemaProbe.isStandardContainer(Set<String>.self))
        #expect(SchemaProbe.isStandardContainer([String: [TreeNode?]].self))
        #expect(SchemaProbe.isStandardContainer(TreeNode?.self))
        #expect(SchemaProbe.isStandardContainer([Swift.Array<Int>.Link].self))
    }

    @Test("named types are not, whatever they are called or nested in")
    func namedTypes() {
        #expect(!SchemaProbe.isStandardContainer(TreeNode.self))
        #expect(!SchemaProbe.isStandardContainer(Int.self))
        #expect(!SchemaProbe.isStandardContainer(Array<Int>.self))
        #expect(!SchemaProbe.isStandardContainer(Swift.Array<Int>.Link.self))
    }

    @Test("a recursive type nested in an extension of Array refers back to itself")
    func recursionInsideAnExtension() {
        #expect(JSONSchemaBuilder.schema(for: Swift.Array<Int>.Link.self).encodedString() == """
        {"type":"object","properties":{"label":{"type":"string"},"next":{"type":"array","items":{"$ref":"#"}}},\
        "required":["label","next"],"additionalProperties":false}
        """)
    }
}
