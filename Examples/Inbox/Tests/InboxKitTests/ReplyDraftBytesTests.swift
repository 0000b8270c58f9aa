import InboxKit
import JSONCore
import Testing

/// ReplyDraft's reader and writer (ReplyDraft+Bytes.swift) against the general path on the
/// same values: what the reader accepts, parsing, the schema check and `init(json:)` accept
/// as the same draft, and what it declines is left to them; what the writer writes is the
/// text of `jsonValue`.
@Suite("ReplyDraft reads and writes its own bytes exactly as the general path would")
struct ReplyDraftBytesTests {
    /// The general path: parse, check `jsonSchema`, `init(json:)`; `nil` where it refuses.
    static func general(_ text: String) -> ReplyDraft? {
        guard let value = try? JSONValue(parsing: text),
              let schema = try? JSONSchema(ReplyDraft.jsonSchema), schema.isValid(value) else { return nil }
        return try? ReplyDraft(json: value)
    }

    /// The reader, as the kit runs it on a sent value's bytes; `nil` where it declines.
    static func read(_ text: String) -> ReplyDraft? {
        try? ReplyDraft(readingJSON: text)
    }

    /// Every pairing of these member texts, in both orders, with and without a stray member:
    /// valid drafts, each kind of wrong type, negative and huge cursors, escapes, non-ASCII.
    static var texts: [String] {
        let texts = [#""""#, #""Thanks, ""#, #""à bientôt 😀""#, #""say \"hi\"""#, #""\u00e9""#, #""line\nbreak""#,
                     "7", "null", "true", #"["t"]"#, "{}"]
        let cursors = ["0", "8", "-1", "-0", "1.5", "2e1", "01", "123456789012345678", "99999999999999999999",
                       #""3""#, "null", "false", nil]
        var all: [String] = []
        for text in texts {
            for cursor in cursors {
                var members = [#""text":\#(text)"#]
                if let cursor { members.append(#""cursor":\#(cursor)"#) }
                all.append("{" + members.joined(separator: ",") + "}")
                all.append(" { " + members.reversed().joined(separator: " , ") + " } ")
            }
        }
        for tail in [#","extra":1"#, #","text":"again""#, #","cursor":1"#, #","\u0074ext":"x""#, ",", #","":0"#] {
            all.append(#"{"text":"hi","cursor":2"# + tail + "}")
        }
        all += ["{}", "[]", "null", #""hi""#, #"{"text":"hi","cursor":2"#, #"{"text":"hi","cursor":2}}"#,
                #"{"text":"hi" "cursor":2}"#, #"{"text":"hi","cursor":2} x"#]
        return all
    }

    @Test("the reader reads what the general path reads, as the same draft, and declines the rest")
    func readerAgreesWithTheGeneralPath() {
        var read = 0
        for text in Self.texts {
            let fast = Self.read(text)
            if let fast {
                read += 1
                #expect(fast == Self.general(text), "\(text)")
            }
        }
        // Not a reader that declines everything: the plain valid drafts are read.
        #expect(read >= 8)
        #expect(Self.read(#"{"text":"Thanks, ","cursor":8}"#) == ReplyDraft(text: "Thanks, ", cursor: 8))
        #expect(Self.read(#"{"cursor":-1,"text":"x"}"#) == nil && Self.general(#"{"cursor":-1,"text":"x"}"#) == nil)
    }

    @Test("the writer writes exactly the text jsonValue serializes to, for many drafts")
    func writerAgreesWithJSONValue() {
        let texts = ["", "Thanks, ", "à bientôt 😀", "say \"hi\"", "line\nbreak", "tab\there", "\u{1}", "back\\slash", "</script>"]
        for text in texts {
            for cursor in [0, 1, 8, 1_000_000, Int.max] {
                let draft = ReplyDraft(text: text, cursor: cursor)
                #expect(draft.writtenJSON() == draft.jsonValue.encodedBytes(), "\(draft)")
            }
        }
    }
}
