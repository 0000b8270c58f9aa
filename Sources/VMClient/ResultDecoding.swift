import JSONCore

/// Reads a daemon result into a typed value, turning a shape error into
/// ``VMClientError/protocolViolation(_:)`` that names the method and the exact member.
/// Members the client does not know are ignored (the protocol's evolution rule).
func decodeResult<T>(
    of method: String, _ body: () throws(JSONDecodingError) -> T
) throws(VMClientError) -> T {
    do {
        return try body()
    } catch {
        throw .protocolViolation("\(method) result: \(error)")
    }
}
