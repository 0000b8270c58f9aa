import JSONCore
import ReactiveCore
import ViewModelKit

/// The MVVM articles' "complete monitoring" of a text field: a user's edits (`type`) and the
/// program's assignments (`set`) are two sources of the same text, so they are merged into
/// one state output instead of watching only one of them.
///
/// `text` and `length` publish changes only: typing the text it already has, or setting it
/// to the same value, publishes nothing. `length` counts characters as a person does
/// (grapheme clusters: "🇫🇷" is 1).
public struct TextField: ViewModel {
    public static let summary = "A text field whose text comes from typing and from the program alike."

    /// `{"text": string = ""}`: the text before any edit.
    public struct Arguments: JSONConvertible, Sendable, Equatable {
        /// The text before any edit.
        public var text: String

        public init(text: String = "") {
            self.text = text
        }

        public init(json: JSONValue) throws(JSONDecodingError) {
            let members = try JSONObjectDecoder(json)
            try members.rejectUnknownMembers(allowed: ["text"])
            text = try members.decode("text", default: "")
        }

        public var jsonValue: JSONValue { ["text": .string(text)] }

        public static var jsonSchema: JSONValue {
            JSONSchemaBuilder.object(["text": ["type": "string", "default": ""]])
        }
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let type = Input<String>("A user's edit: the field's whole new text.")
        public let set = Input<String>("A programmatic assignment of the whole text.")
        public let text = State<String>("The current text, whoever changed it.", initial: "")
        public let length = State<Int>("The number of characters in text, as a person counts them.", initial: 0)

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        let text = Observable.merge(ports.type.asObservable(), ports.set.asObservable())
            .startWith(context.args.text)
            .distinctUntilChanged()
            .share(replay: 1)
        ports.text.bind(text)
        ports.length.bind(text.map(\.count).distinctUntilChanged())
    }
}
