import JSONCore

/// `vm.execute {instance, action, value?, timeoutMs?, progress?, resetTimeoutOnProgress?}` →
/// `{value}`, after the `vm.progress` notifications it asked for.
public enum VMExecuteMethod: VMMethod {
    public static let name = "vm.execute"

    /// The range `timeoutMs` must be in.
    package static let timeoutRange: ClosedRange<Int64> = 1...2_147_483_647

    public struct Params: Sendable, Hashable {
        public var instance: String
        public var action: String
        /// `nil` when omitted: the action input schema's default, else `null`.
        public var value: JSONValue?
        /// Milliseconds from the start of the execution; `nil` for no timeout.
        public var timeoutMs: Int64?
        /// Whether to send `vm.progress` notifications for this execution.
        public var progress: Bool
        /// Whether each progress the action reports restarts `timeoutMs`.
        public var resetTimeoutOnProgress: Bool

        public init(
            instance: String, action: String, value: JSONValue? = nil, timeoutMs: Int64? = nil,
            progress: Bool = false, resetTimeoutOnProgress: Bool = false
        ) {
            self.instance = instance
            self.action = action
            self.value = value
            self.timeoutMs = timeoutMs
            self.progress = progress
            self.resetTimeoutOnProgress = resetTimeoutOnProgress
        }

        package init(_ params: JSONValue?) throws(WireError) {
            let reader = try ParamsReader(params)
            try reader.rejectUnknown(
                allowed: ["instance", "action", "value", "timeoutMs", "progress", "resetTimeoutOnProgress"], method: VMExecuteMethod.name)
            instance = try reader.string("instance")
            action = try reader.string("action", nonEmpty: true)
            value = reader.value("value")
            timeoutMs = try reader.optionalInteger("timeoutMs", in: VMExecuteMethod.timeoutRange)
            progress = try reader.optionalBool("progress") ?? false
            resetTimeoutOnProgress = try reader.optionalBool("resetTimeoutOnProgress") ?? false
        }

        /// The params object (a client's side); `value`, `timeoutMs` and the progress options
        /// only when given.
        public var jsonValue: JSONValue {
            var object: JSONObject = ["instance": .string(instance), "action": .string(action)]
            if let value { object["value"] = value }
            if let timeoutMs { object["timeoutMs"] = .integer(timeoutMs) }
            if progress { object["progress"] = true }
            if resetTimeoutOnProgress { object["resetTimeoutOnProgress"] = true }
            return .object(object)
        }
    }

    /// `{"value": value}`: what the action returned.
    public struct Result: Sendable, Hashable {
        public var value: JSONValue

        package init(value: JSONValue) { self.value = value }

        /// Reads the result (a client's side); `value` must be present (it may be `null`).
        public init(json: JSONValue) throws(JSONDecodingError) {
            value = try JSONObjectDecoder(json).requiredMember("value")
        }

        public var jsonValue: JSONValue { ["value": value] }
    }

    /// `{"value": value}`.
    package static func result(value: JSONValue) -> JSONValue { Result(value: value).jsonValue }
}
