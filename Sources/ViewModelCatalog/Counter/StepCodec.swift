import JSONCore
import ViewModelKit

/// The wire form of Counter's steps: an integer, where `null` means the default step 1.
///
/// Why accept `null`: PROTOCOL.md section 5 says a `null` value means "no value", and an
/// omitted value means the schema's `default`. A client that always writes
/// `"value": null` for "no value" should get the same step as one that omits it, so both
/// mean 1, and the published schema says so (`"type": ["integer", "null"]`, a description,
/// `"default": 1`). Any other value must be an integer (negative steps are allowed).
enum StepCodec {
    static let defaultStep = 1

    static var codec: ValueCodec<Int> {
        ValueCodec<Int>(
            schema: [
                "type": ["integer", "null"],
                "description": "The step; omitted or null means 1.",
            ],
            decode: { json throws(JSONDecodingError) in
                json.isNull ? defaultStep : try Int(json: json)
            },
            encode: { .integer(Int64($0)) })
    }
}
