import JSONCore
import Testing
import ViewModelCatalog

/// TodoItem writes its own text (TodoItem+JSONWriting.swift): byte for byte what the
/// serializer writes for its `jsonValue`.
@Suite("TodoItem written as text")
struct TodoItemWritingTests {
    static let titles = [
        "", "Buy milk", "café ☕️", "tab\tnew\nline", "\"quoted\" \\ back", "\u{0}\u{1F}", "日本語のタイトル",
        String(repeating: "long \u{1} title é ", count: 200),
    ]
    static let ids = [0, 1, -1, 42, 99_999_999, 100_000_000, Int.max, Int.min]

    @Test("every item's written text is its tree's serialized text")
    func writtenTextIsTheTreesText() {
        for id in Self.ids {
            for title in Self.titles {
                for done in [false, true] {
                    let item = TodoItem(id: id, title: title, done: done)
                    #expect(item.writtenJSON() == item.jsonValue.encodedBytes(), "\(item)")
                }
            }
        }
    }

    @Test("a list of items and an optional item are written as their trees are")
    func listsOfItems() {
        let items = Self.titles.enumerated().map { TodoItem(id: $0.offset, title: $0.element, done: $0.offset % 2 == 0) }
        #expect(items.writtenJSON() == items.jsonValue.encodedBytes())
        #expect((nil as TodoItem?).writtenJSON() == Array("null".utf8))
        #expect((items.first as TodoItem?).writtenJSON() == items.first?.jsonValue.encodedBytes())
    }
}
