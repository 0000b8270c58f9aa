import JSONCore
import ReactiveCore
import ViewModelKit

/// A to-do list: the catalog's long list, the case RFC 6902 patch subscriptions are for
/// (PROTOCOL.md, "Patches"). Toggling one item of 10,000 changes one member of `items`.
///
/// `items` is a `State<IdentifiedList<TodoItem>>`: every change is an edit of the list made
/// in place (`bind(_:update:)`), so a patch subscriber is sent the edit's patch and the daemon
/// never encodes or compares the whole list for it; finding an item by id takes constant time.
/// Ids come from a counter, so an id is never handed out twice in one instance, even after
/// its item is removed. `toggle`, `remove` and `rename` check their id against the current
/// `items` while decoding, so an unknown id is answered `invalidValue`
/// (`"expected": "the id of an item"`) and nothing changes.
public struct TodoList: ViewModel {
    public static let summary = "A to-do list: add, toggle, rename and remove items."

    /// `{"items": [{"title": "…", "done": false}, …]}`: the list to start from.
    public struct Arguments: ViewModelArguments, Equatable {
        /// One starting item; ids are assigned in order from 1.
        public struct Seed: Codable, Sendable, Equatable {
            /// The item's title.
            public var title: String
            /// Whether it starts done (absent: not done).
            public var done: Bool?

            /// A starting item.
            public init(title: String, done: Bool? = nil) {
                self.title = title
                self.done = done
            }
        }

        /// The items to start from.
        public var items: [Seed] = []

        /// An empty list.
        public init() {}

        /// A list starting with `items`.
        public init(items: [Seed]) {
            self.items = items
        }
    }

    /// The ports, in wire order; each summary is what `vm.types` publishes.
    public struct Ports: ViewModelPorts {
        public let add: Input<String>
        public let toggle: Input<Int>
        public let remove: Input<Int>
        public let rename: Input<TodoRename>
        public let clearDone: Input<Void>
        public let items: State<IdentifiedList<TodoItem>>
        public let remaining: State<Int>

        /// Fresh ports for one instance.
        public init() {
            add = Input<String>("Append an item with this title.")
            // The id inputs read `items` (created below, before any value can arrive).
            let current = IDLookup()
            toggle = Input<Int>("Flip the done flag of the item with this id.", codec: current.idCodec)
            remove = Input<Int>("Delete the item with this id.", codec: current.idCodec)
            rename = Input<TodoRename>("Give the item `id` the title `title`.", codec: current.renameCodec)
            clearDone = Input<Void>("Delete every done item.")
            items = State<IdentifiedList<TodoItem>>("Every item, in order.", initial: [])
            remaining = State<Int>("How many items are not done.", initial: 0)
            current.items = items
        }
    }

    /// Lets the id inputs' codecs see the list they validate against.
    final class IDLookup {
        weak var items: State<IdentifiedList<TodoItem>>?

        func check(_ id: Int, at path: JSONPath) throws(JSONDecodingError) {
            guard items?.value.contains(id: id) == true else {
                throw JSONDecodingError(path: path, expected: "the id of an item", got: String(id), detail: "no item has id \(id)")
            }
        }

        var idCodec: ValueCodec<Int> {
            ValueCodec<Int>(
                schema: ["type": "integer", "description": "The id of an item."],
                decode: { [self] json throws(JSONDecodingError) in
                    let id = try Int(json: json)
                    try check(id, at: .root)
                    return id
                },
                encode: { .integer(Int64($0)) })
        }

        var renameCodec: ValueCodec<TodoRename> {
            ValueCodec<TodoRename>(
                schema: TodoRename.jsonSchema,
                decode: { [self] json throws(JSONDecodingError) in
                    let rename = try TodoRename(json: json)
                    try check(rename.id, at: JSONPath.root.appending(key: "id"))
                    return rename
                },
                encode: { $0.jsonValue })
        }
    }

    /// What the list cannot tell by itself: the next id to hand out and how many items are
    /// not done (kept as the list changes, so no change counts the whole list).
    struct Tally {
        var nextID: Int
        var remaining: Int

        /// Applies `change` to `items`; a change that changes nothing (renaming to the same
        /// title, clearing when nothing is done) edits nothing, so nothing is published.
        mutating func apply(_ change: Change, to items: inout IdentifiedList<TodoItem>) {
            switch change {
            case .add(let title):
                items.append(TodoItem(id: nextID, title: title))
                nextID += 1
                remaining += 1
            case .toggle(let id):
                items.update(id: id) { item in
                    item.done.toggle()
                    remaining += item.done ? -1 : 1
                }
            case .remove(let id):
                if let removed = items.remove(id: id), !removed.done { remaining -= 1 }
            case .rename(let rename):
                guard let item = items[id: rename.id], item.title != rename.title else { return }
                items.update(id: rename.id) { $0.title = rename.title }
            case .clearDone:
                items.removeAll { $0.done }
            }
        }
    }

    enum Change {
        case add(String)
        case toggle(Int)
        case remove(Int)
        case rename(TodoRename)
        case clearDone
    }

    /// Every change edits the list in place; `remaining` follows it.
    public init(ports: Ports, context: Context) {
        let seeds = context.args.items
        // A durable instance comes back with its items and its next id (so an id is never
        // handed out twice, even across a restart); any other starts from its arguments.
        let savedItems = context.saved(
            "items", default: seeds.enumerated().map { TodoItem(id: $0.offset + 1, title: $0.element.title, done: $0.element.done ?? false) })
        let savedNextID = context.saved("nextID", default: seeds.count + 1)
        let start = IdentifiedList(savedItems.value)
        var tally = Tally(
            nextID: max(savedNextID.value, (start.map(\.id).max() ?? 0) + 1), remaining: start.reduce(0) { $1.done ? $0 : $0 + 1 })
        ports.items.accept(start)
        let changes = Observable.merge(
            ports.add.map(Change.add),
            ports.toggle.map(Change.toggle),
            ports.remove.map(Change.remove),
            ports.rename.map(Change.rename),
            ports.clearDone.map { Change.clearDone })
        ports.items.bind(changes) { items, change in
            tally.apply(change, to: &items)
            if savedNextID.value != tally.nextID { savedNextID.value = tally.nextID }
        }
        // The saved form is the plain array (what earlier versions saved); saving happens only
        // in a durable instance.
        savedItems.save(ports.items.map(\.elements))
        ports.remaining.bind(ports.items.map { _ in tally.remaining })
    }
}
