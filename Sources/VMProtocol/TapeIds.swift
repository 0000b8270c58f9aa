import JSONCore

/// The ids a run makes up (a child scene's instance id, the id a store gives an upload),
/// matched between a tape and its replay (Protocol/PROTOCOL.md, section 17, "Ids").
///
/// A view model marks such a value in its schema with `"x-vmd-run-id": true`
/// (``schemaKeyword``, `JSONSchemaBuilder.runId(_:)`); the recorder lists where they are in the tape's header, `"ids":
/// {"send": ["/uploadId", "/instance"], "navigate": ["/instance"]}` (per output or action,
/// JSON Pointers into its value or result). A replay cannot get the recorded ids back, so it
/// matches them by place: the first time a recorded id and a replayed id meet at an id's
/// place they are bound to each other, and from then on the replayed id reads as the recorded
/// one (in outputs and outcomes) and the recorded id is sent as the replayed one (in later
/// inputs and actions). A replayed id met where another recorded id is bound, or a recorded
/// id met with another replayed id, stays as it came and diverges.
///
/// The replay's own instance has another id too, and so has every id the daemon derives from
/// it (a child named `parent.name`, as an Inbox's rows `inbox.m3`): in outputs and results, a
/// string equal to the replayed instance's id, or starting with it and a `.`, reads with the
/// recorded id in its place. (Steps are sent as taped: a recorded id is often a plain word.)
///
/// A reference: the replayer learns as the values arrive, in the order they arrive.
package final class TapeIds {
    /// The header member that lists the places.
    package static let headerMember = "ids"
    /// The schema annotation that marks a value a run makes up.
    package static let schemaKeyword = JSONSchemaBuilder.runIdKeyword

    /// Per output or action, the places (JSON Pointer tokens; empty: the whole value).
    private let places: [String: [[String]]]
    private var replayedFor: [JSONValue: JSONValue] = [:]
    private var recordedFor: [JSONValue: JSONValue] = [:]
    /// Per output, the tape's values, and how many the replay emitted so far.
    private let expected: [String: [(value: JSONValue, afterSteps: Int)]]
    private var emitted: [String: Int] = [:]
    /// The tape's instance id and the replay's, when they differ.
    private let instance: (recorded: String, replayed: String)?

    /// The places `tape`'s header lists (none for tapes of version 2 and older), for a replay
    /// whose instance is `replayInstance` (`nil`: created under the tape's id).
    package init(tape: Tape, replayInstance: String? = nil) {
        var places: [String: [[String]]] = [:]
        for (port, pointers) in tape.header[Self.headerMember]?.objectValue ?? [:] {
            places[port] = (pointers.arrayValue ?? []).compactMap(\.stringValue).map(Self.tokens)
        }
        self.places = places
        expected = places.isEmpty ? [:] : tape.expectations()
        if let recorded = tape.header["instance"]?.stringValue, let replayInstance, replayInstance != recorded {
            instance = (recorded, replayInstance)
        } else {
            instance = nil
        }
    }

    /// Whether the tape has any id to match.
    package var isEmpty: Bool { places.values.allSatisfy(\.isEmpty) && instance == nil }

    /// `got`, what `port` emitted or returned in the replay, with each replayed id at one of
    /// its places read as the recorded id it is bound to; an id met for the first time is bound
    /// to the one at the same place in `expected` (the tape's value), if that one is free.
    package func recorded(_ got: JSONValue, port: String, expected: JSONValue?) -> JSONValue {
        let got = instance.map { Self.renaming(got, from: $0.replayed, to: $0.recorded) } ?? got
        guard let places = places[port] else { return got }
        var value = got
        for place in places {
            guard let replayed = Self.value(in: got, at: place[...]) else { continue }
            if let recorded = recordedFor[replayed] {
                value = Self.replacing(value, at: place[...], with: recorded)
            } else if let expected, let recorded = Self.value(in: expected, at: place[...]), replayedFor[recorded] == nil {
                replayedFor[recorded] = replayed
                recordedFor[replayed] = recorded
                value = Self.replacing(value, at: place[...], with: recorded)
            }
        }
        return value
    }

    /// The next value `output` emitted in the replay, its ids read as the tape's: matched with
    /// the tape's value at the same place in the output's sequence.
    package func recorded(output: String, value: JSONValue) -> JSONValue {
        guard places[output] != nil else { return recorded(value, port: output, expected: nil) }
        let index = emitted[output, default: 0]
        emitted[output] = index + 1
        let wanted = expected[output].flatMap { index < $0.count ? $0[index].value : nil }
        return recorded(value, port: output, expected: wanted)
    }

    /// A step's value from the tape with every string that is a bound recorded id replaced by
    /// its replayed id (a later input naming the child scene the replay opened).
    package func replayed(_ value: JSONValue) -> JSONValue {
        guard !replayedFor.isEmpty else { return value }
        switch value {
        case .string:
            return replayedFor[value] ?? value
        case .array(let items):
            return .array(items.map(replayed))
        case .object(let object):
            var result = object
            for (key, member) in object { result[key] = replayed(member) }
            return .object(result)
        default:
            return value
        }
    }

    /// `value` with every string that is the instance id `old`, or starts with it and a `.`
    /// (a child's id), written with `new` in its place.
    private static func renaming(_ value: JSONValue, from old: String, to new: String) -> JSONValue {
        switch value {
        case .string(let text):
            if text == old { return .string(new) }
            if text.hasPrefix(old + ".") { return .string(new + text.dropFirst(old.count)) }
            return value
        case .array(let items):
            return .array(items.map { renaming($0, from: old, to: new) })
        case .object(let object):
            var result = object
            for (key, member) in object { result[key] = renaming(member, from: old, to: new) }
            return .object(result)
        default:
            return value
        }
    }

    /// The header's `ids` for a type: per output (`outputs`) and action (`actions`, their
    /// result schemas), the JSON Pointers of the members marked ``schemaKeyword``; `nil` when
    /// there is none.
    package static func header(outputs: [(name: String, schema: JSONValue)], actions: [(name: String, schema: JSONValue)]) -> JSONValue? {
        var ids: JSONObject = [:]
        for (name, schema) in outputs + actions {
            let pointers = places(in: schema, at: "")
            if !pointers.isEmpty { ids[name] = .array(pointers.map(JSONValue.string)) }
        }
        return ids.isEmpty ? nil : .object(ids)
    }

    // MARK: Internals

    /// The marked members of `schema` (its `properties`, nested), as JSON Pointers.
    private static func places(in schema: JSONValue, at pointer: String) -> [String] {
        if schema[schemaKeyword] == .bool(true) { return [pointer] }
        guard let properties = schema["properties"]?.objectValue else { return [] }
        return properties.keys.sorted().flatMap { key in
            places(in: properties[key] ?? .null, at: pointer + "/" + key.replacing("~", with: "~0").replacing("/", with: "~1"))
        }
    }

    private static func tokens(_ pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { String($0).replacing("~1", with: "/").replacing("~0", with: "~") }
    }

    private static func value(in value: JSONValue, at place: ArraySlice<String>) -> JSONValue? {
        guard let key = place.first else { return value }
        return value[key].flatMap { self.value(in: $0, at: place.dropFirst()) }
    }

    private static func replacing(_ value: JSONValue, at place: ArraySlice<String>, with new: JSONValue) -> JSONValue {
        guard let key = place.first else { return new }
        guard var object = value.objectValue, let member = object[key] else { return value }
        object[key] = replacing(member, at: place.dropFirst(), with: new)
        return .object(object)
    }
}
