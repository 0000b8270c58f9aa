import JSONCore

/// The JSON Schemas of the protocol's types, as references to the generated files of
/// `Protocol/schemas` (each has `"$id": "urn:vmd:schema:<name>"`): what the wire types give
/// as their ``JSONConvertible/jsonSchema``.
package enum WireSchema {
    /// The prefix of every generated schema's `$id`.
    package static let idPrefix = "urn:vmd:schema:"

    /// `{"$ref": "urn:vmd:schema:<name>"}`.
    package static func reference(_ name: String) -> JSONValue {
        ["$ref": .string(idPrefix + name)]
    }
}

extension VMLimits: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("Limits") }
}

extension VMListMethod.Summary: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("InstanceSummary") }
}

extension VMTypesMethod.TypeDescription: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("TypeDescription") }
}

extension DaemonInfoMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("daemon.info.result") }
}

extension DaemonMonitorMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("daemon.monitor.result") }
}

extension VMCreateMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("vm.create.result") }
}

extension VMExecuteMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("vm.execute.result") }
}

extension VMGetMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("vm.get.result") }
}

extension VMSubscribeMethod.Result: JSONConvertible {
    public static var jsonSchema: JSONValue { WireSchema.reference("vm.subscribe.result") }
}
