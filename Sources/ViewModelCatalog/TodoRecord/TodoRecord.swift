import ReactiveCore
import ViewModelKit

/// One record edited as a whole: each input replaces the record its state shows. The same
/// `{id, title, done}` record comes in twice, as a `Codable` ``Note`` (`edit` → `note`) and as
/// the hand-written `JSONConvertible` ``TodoItem`` (`editItem` → `item`), so the cost of an
/// object value on the send path can be compared between the two (`.ci/instructions`,
/// workloads `sendCodable` and `sendObject`).
public struct TodoRecord: ViewModel {
    public static let summary = "A record edited as a whole, as a Codable note and as a hand-written item."

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let edit = Input<Note>("Replace the note.")
        public let editItem = Input<TodoItem>("Replace the item.")
        public let note = State<Note>("The current note.", initial: Note(id: 0, title: "", done: false))
        public let item = State<TodoItem>("The current item.", initial: TodoItem(id: 0, title: ""))

        public init() {}
    }

    public init(ports: Ports, context: Context) {
        ports.note.bind(ports.edit.asObservable())
        ports.item.bind(ports.editItem.asObservable())
    }
}
