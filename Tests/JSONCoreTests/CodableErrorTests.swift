import JSONCore
import Testing

@Suite("Decoding Codable values reports every error with its JSON path")
struct CodableErrorTests {
    @Test("a member of the wrong type inside an array names the element")
    func wrongElementType() {
        let error = decodingError(Note.self, ["text": "t", "tags": ["ok", 1], "scores": [:]])
        #expect(error?.description == "$.tags[1]: expected string, got integer")
    }

    @Test("a missing member says which and what was expected")
    func missingMember() {
        let error = decodingError(Item.self, ["id": 1, "done": true])
        #expect(error?.description == #"$.title: expected string, got missing (required member "title" is missing)"#)
    }

    @Test("a missing member of a Codable type says it is missing")
    func missingNestedMember() {
        struct Holder: Codable { var item: Item }
        let error = decodingError(Holder.self, [:])
        #expect(error?.path == JSONPath([.key("item")]))
        #expect(error?.got == "missing")
    }

    @Test("an integer out of its type's range is rejected with the range")
    func outOfRange() {
        let error = decodingError([Int8].self, [1, 300])
        #expect(error?.description == "$[1]: expected integer, got number 300 (value 300 does not fit in Int8)")
        #expect(decodingError(UInt8.self, -1)?.detail == "value -1 does not fit in UInt8")
        #expect(decodingError(UInt64.self, .double(2e19))?.detail == "value 2e+19 does not fit in UInt64")
    }

    @Test("a fraction is not an integer, and a huge number is not a Float")
    func notWhole() {
        #expect(decodingError(Item.self, ["id": 1.5, "title": "t", "done": true])?.description
            == "$.id: expected integer, got number 1.5 (not a whole number within 64 bits)")
        #expect(decodingError(Float.self, .double(1e300))?.detail == "value 1e+300 does not fit in Float")
        #expect(decodingError(Double.self, "1")?.description == "$: expected number, got string")
    }

    @Test("an unknown case of a CaseIterable enumeration lists the cases")
    func unknownCase() {
        let error = decodingError(Palette.self, ["main": "purple", "accents": [], "priority": 1])
        #expect(error?.path == JSONPath([.key("main")]))
        #expect(error?.expected == #"one of "red", "green", "blue""#)
        #expect(error?.got == #""purple""#)
    }

    @Test("an unknown case of an enumeration that cannot list its cases names the type")
    func unknownOpaqueCase() {
        let error = decodingError(Progress.self, ["done": 5, "mood": "sleepy"])
        #expect(error?.path == JSONPath([.key("mood")]))
        #expect(error?.expected == "a valid Mood")
        #expect(error?.got == #""sleepy""#)
    }

    @Test("an enumeration with associated values rejects an unknown case where it stands")
    func unknownAssociatedCase() {
        let error = decodingError([Shape].self, [["point": [:]], ["triangle": [:]]])
        #expect(error?.path == JSONPath([.index(1)]))
        #expect(error?.expected == "Shape")
        #expect(error?.got == "object")
    }

    @Test("a value of the wrong JSON type at the root, in a dictionary and behind a super decoder")
    func wrongContainers() {
        #expect(decodingError(Item.self, [])?.description == "$: expected object, got array")
        #expect(decodingError(Note.self, ["text": "t", "tags": [], "scores": ["x": "a"]])?.description
            == "$.scores.x: expected integer, got string")
        #expect(decodingError(Dog.self, ["goodBoy": true, "super": [:]])?.path == JSONPath([.key("super"), .key("name")]))
    }

    @Test("an array shorter than a hand-written decoder reads reports the missing element")
    func shortArray() {
        let error = decodingError(Point3.self, ["coordinates": [1, 2], "meta": ["label": "p"]])
        #expect(error?.path == JSONPath([.key("coordinates"), .index(2)]))
        #expect(error?.got == "missing")
    }

    @Test("errors of a JSONConvertible member keep their path below the member")
    func convertibleMemberPath() {
        struct Holder: Codable { var tagged: [Tagged] }
        let error = decodingError(Holder.self, ["tagged": [["hand": 3]]])
        #expect(error?.description == "$.tagged[0].hand: expected string, got integer")
    }
}
