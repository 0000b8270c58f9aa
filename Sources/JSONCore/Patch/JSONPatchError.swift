/// Why a JSON Patch could not be read or applied, and at which operation.
///
/// `description` reads "operation 2 (remove /items/7): no element at index 7 (the array has 7)".
public struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// A pointer's text is malformed (the text, then why).
        case invalidPointer(String, String)
        /// An operation object is malformed (missing `op`, `path`, `value` or `from`, unknown `op`).
        case malformedOperation(String)
        /// The pointer names a member or element that does not exist.
        case notFound(JSONPointer)
        /// An array token is not an index, or is out of range (the pointer, then the array's count).
        case invalidIndex(JSONPointer, count: Int)
        /// The pointer goes through a value that is neither an object nor an array.
        case notAContainer(JSONPointer)
        /// `move` into its own child.
        case moveIntoItself(from: JSONPointer, path: JSONPointer)
        /// A `test` operation found a different value.
        case testFailed(JSONPointer)
    }

    /// The position of the failing operation in the patch, if known.
    public var operationIndex: Int?
    /// A short rendering of the failing operation ("remove /items/7"), if known.
    public var operation: String?
    /// What went wrong.
    public var reason: Reason

    /// An error for `reason`, at the operation given when known.
    public init(operationIndex: Int? = nil, operation: String? = nil, reason: Reason) {
        self.operationIndex = operationIndex
        self.operation = operation
        self.reason = reason
    }

    /// The reason alone, as a sentence fragment.
    public var message: String {
        switch reason {
        case let .invalidPointer(text, why): return "invalid JSON Pointer \(JSONValue.string(text)): \(why)"
        case let .malformedOperation(why): return why
        case let .notFound(pointer): return "nothing at \(pointer.description.isEmpty ? "the root" : pointer.description)"
        case let .invalidIndex(pointer, count): return "\(pointer) is not an index of the array (it has \(count) elements)"
        case let .notAContainer(pointer): return "\(pointer) goes through a value that is neither an object nor an array"
        case let .moveIntoItself(from, path): return "cannot move \(from) into its own child \(path)"
        case let .testFailed(pointer): return "test failed: the value at \(pointer.description.isEmpty ? "the root" : pointer.description) differs"
        }
    }

    /// "operation 2 (remove /items/7): " and the ``message``.
    public var description: String {
        var prefix = ""
        if let operationIndex { prefix = "operation \(operationIndex)" }
        if let operation { prefix += prefix.isEmpty ? operation : " (\(operation))" }
        return prefix.isEmpty ? message : prefix + ": " + message
    }
}
