import JSONCore

/// Fuzzes ``JSONParser``: every input is parsed with the defaults, with duplicate keys rejected
/// and with a shallow depth limit. An accepted document must serialize to text that parses
/// again to a value serializing to the very same bytes.
enum JSONTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        if let value = try? JSONParser.parse(input) {
            let text = value.encodedBytes()
            let again: JSONValue
            do {
                again = try JSONParser.parse(text)
            } catch {
                preconditionFailure("the serializer wrote what the parser rejects: \(error)")
            }
            precondition(again.encodedBytes() == text, "serialize → parse → serialize is not stable")
        }
        _ = try? JSONParser.parse(input, options: JSONParseOptions(duplicateKeys: .reject))
        _ = try? JSONParser.parse(input, options: JSONParseOptions(maxDepth: 4))
    }
}
