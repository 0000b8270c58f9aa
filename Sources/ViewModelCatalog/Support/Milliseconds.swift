import JSONCore

/// The `latencyMs` creation argument several catalog types share: a non-negative whole
/// number of milliseconds, published with its default.
enum Milliseconds {
    /// The upper bound keeps a typo from parking an execution for days (10 minutes).
    static let maximum: Int64 = 600_000

    /// `{"type": "integer", "minimum": 0, "maximum": 600000}` (a `ViewModelArguments`
    /// member schema: the kit adds the property's default).
    static var schema: JSONValue {
        ["type": "integer", "minimum": 0, "maximum": .integer(maximum)]
    }

    /// ``schema`` with `"default": defaultValue`, for hand-written arguments.
    static func schema(default defaultValue: Int) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["default"] = .integer(Int64(defaultValue))
        return .object(object)
    }

    /// The duration of `milliseconds` (already checked against ``schema(default:)``).
    static func duration(_ milliseconds: Int) -> Duration {
        .milliseconds(milliseconds)
    }
}
