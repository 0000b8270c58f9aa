import JSONCore
import ReactiveCore
import Testing

@testable import ViewModelKit

/// A value type that writes its own text (`JSONByteWritable`).
private struct WrittenPoint: JSONByteWritable, Equatable {
    var x: Int
    var label: String

    init(x: Int, label: String) {
        self.x = x
        self.label = label
    }

    init(json: JSONValue) throws(JSONDecodingError) {
        let members = try JSONObjectDecoder(json)
        x = try members.decode("x")
        label = try members.decode("label")
    }

    var jsonValue: JSONValue { ["x": .integer(Int64(x)), "label": .string(label)] }

    static var jsonSchema: JSONValue { ["type": "object"] }

    func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.member(ascii: "x", x)
        writer.member(ascii: "label", label)
        writer.endObject()
    }
}

/// A state of a `JSONByteWritable` type hands a lone text watcher its values as bytes
/// (OutputFanOut.swift): no tree unless the watcher asks for one, and then the state's
/// current encoding is that tree.
@Suite("State values written as text for a lone watcher")
struct StateTextDeliveryTests {
    /// The text `write` appends.
    static func written(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a lone text watcher gets each value as bytes, the tree handler nothing")
    func loneTextWatcherGetsBytes() {
        let state = State<WrittenPoint>(initial: WrittenPoint(x: 0, label: ""))
        var trees: [JSONValue] = []
        var texts: [String] = []
        let watch = state.observeJSON({ trees.append($0) }, patches: nil, text: { write, _ in texts.append(Self.written(write)) })
        defer { watch.dispose() }
        state.accept(WrittenPoint(x: 1, label: "a\"b"))
        state.accept(WrittenPoint(x: -2, label: "é"))
        #expect(trees.isEmpty)
        #expect(texts == [#"{"x":1,"label":"a\"b"}"#, #"{"x":-2,"label":"é"}"#])
        #expect(state.currentJSON == ["x": -2, "label": "é"])
    }

    @Test("a text watcher that asks for the tree gets the value's, cached as the state's encoding")
    func treeOnRequest() {
        let state = State<WrittenPoint>(initial: WrittenPoint(x: 0, label: ""))
        var trees: [JSONValue] = []
        let watch = state.observeJSON({ _ in }, patches: nil, text: { _, tree in trees.append(tree()) })
        defer { watch.dispose() }
        state.accept(WrittenPoint(x: 3, label: "c"))
        #expect(trees == [["x": 3, "label": "c"]])
        #expect(state.madeFanOut().cachedJSON == ["x": 3, "label": "c"])
    }

    @Test("beside a second watcher, or for a codec with a tighter schema, every watcher still gets the value")
    func twoWatchersAndWithSchema() {
        let state = State<WrittenPoint>(initial: WrittenPoint(x: 0, label: ""), codec: ValueCodec<WrittenPoint>.json.withSchema(["type": "object", "required": ["x"]]))
        var trees: [JSONValue] = []
        var texts: [String] = []
        let text = state.observeJSON({ trees.append($0) }, patches: nil, text: { write, _ in texts.append(Self.written(write)) })
        state.accept(WrittenPoint(x: 1, label: "one"))
        let other = state.observeJSON({ trees.append($0) }, patches: nil)
        state.accept(WrittenPoint(x: 2, label: "two"))
        other.dispose()
        state.accept(WrittenPoint(x: 3, label: "three"))
        text.dispose()
        #expect(texts == [#"{"x":1,"label":"one"}"#, #"{"x":3,"label":"three"}"#])
        #expect(trees == [["x": 2, "label": "two"], ["x": 2, "label": "two"]])
    }

    @Test("the current value's text (vm.get) is the tree's, written with or without a cached tree, and nothing for an event")
    func currentText() {
        let state = State<WrittenPoint>(initial: WrittenPoint(x: 7, label: "\u{1}é"))
        func current() -> [UInt8] {
            var bytes: [UInt8] = []
            #expect(state.appendCurrentJSON(to: &bytes))
            return bytes
        }
        #expect(current() == WrittenPoint(x: 7, label: "\u{1}é").jsonValue.encodedBytes())
        let watch = state.observeJSON({ _ in }, patches: nil, text: { write, _ in _ = Self.written(write) })
        state.accept(WrittenPoint(x: 8, label: "no tree cached"))
        #expect(state.madeFanOut().cachedJSON == nil)
        #expect(current() == Array(#"{"x":8,"label":"no tree cached"}"#.utf8))
        watch.dispose()
        _ = state.currentJSON
        #expect(current() == Array(#"{"x":8,"label":"no tree cached"}"#.utf8))
        var eventBytes: [UInt8] = []
        #expect(!EventOutput<Int>().appendCurrentJSON(to: &eventBytes))
        #expect(eventBytes.isEmpty)
    }

    @Test("a scalar state keeps its tree: the standard scalars prefer it")
    func scalarsKeepTrees() {
        let state = State<Int>(initial: 0)
        var trees: [JSONValue] = []
        var textCalls = 0
        let watch = state.observeJSON({ trees.append($0) }, patches: nil, text: { _, _ in textCalls += 1 })
        defer { watch.dispose() }
        state.accept(5)
        #expect(trees == [5])
        #expect(textCalls == 0)
    }
}
