import JSONCore
import ReactiveCore
import ReactiveTesting
import Testing
import ViewModelKit
import ViewModelTesting
@testable import ViewModelCatalog

@Suite("TextField: typing and setting are one text, without duplicates")
struct TextFieldTests {
    @Test("edits and programmatic sets both reach text, in order, each change once")
    func bothSourcesMerge() {
        let scheduler = TestScheduler()
        let field = ViewModelHarness(TextField.self, args: TextField.Arguments(), scheduler: scheduler)
        let text = field.record(\.text)
        let length = field.record(\.length)
        scheduler.scheduleAt(10) { field.send(\.type, "h") }
        scheduler.scheduleAt(20) { field.send(\.type, "hi") }
        scheduler.scheduleAt(30) { field.send(\.set, "hi") }
        scheduler.scheduleAt(40) { field.send(\.set, "yo") }
        scheduler.scheduleAt(50) { field.send(\.type, "yo!") }
        scheduler.scheduleAt(60) { field.send(\.set, "") }
        scheduler.start()
        #expect(text.events == [.next(0, ""), .next(10, "h"), .next(20, "hi"), .next(40, "yo"), .next(50, "yo!"), .next(60, "")])
        #expect(length.events == [.next(0, 0), .next(10, 1), .next(20, 2), .next(50, 3), .next(60, 0)])
    }

    @Test("length counts characters as a person does")
    func lengthIsGraphemes() {
        let field = ViewModelHarness(TextField.self, args: TextField.Arguments(text: "é"), scheduler: TestScheduler())
        let length = field.record(\.length)
        field.send(\.type, "🇫🇷")
        field.send(\.type, "e\u{301}t\u{E9}")
        #expect(length.values == [1, 3])
    }

    @Test("the text argument is the text before any edit")
    func initialText() throws {
        let field = ViewModelHarness(TextField.self, args: try TextField.Arguments(json: ["text": "draft"]), scheduler: TestScheduler())
        let text = field.record(\.text)
        let length = field.record(\.length)
        field.send(\.set, "draft")
        #expect(text.values == ["draft"])
        #expect(length.values == [5])
        #expect(try TextField.Arguments(json: [:]).text == "")
        #expect(throws: JSONDecodingError.self) { try TextField.Arguments(json: ["text": 3]) }
    }

    @Test("vm.types describes TextField completely")
    func description() throws {
        #expect(try describe(TextField.self) == """
        {"name":"TextField","summary":"A text field whose text comes from typing and from the program alike.",\
        "args":{"type":"object","properties":{"text":{"type":"string","default":""}},"additionalProperties":false},\
        "inputs":[\
        {"name":"type","summary":"A user's edit: the field's whole new text.","schema":{"type":"string"}},\
        {"name":"set","summary":"A programmatic assignment of the whole text.","schema":{"type":"string"}}],\
        "outputs":[\
        {"name":"text","summary":"The current text, whoever changed it.","kind":"state","schema":{"type":"string"}},\
        {"name":"length","summary":"The number of characters in text, as a person counts them.","kind":"state","schema":{"type":"integer"}}],\
        "actions":[]}
        """)
    }
}
