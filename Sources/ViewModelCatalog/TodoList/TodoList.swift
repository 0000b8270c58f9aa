import JSONCore
import ReactiveCore
import ViewModelKit

/// A to-do list: the catalog's long list, the case RFC 6902 patch subscriptions are for
/// (PROTOCOL.md, "Patches"). Toggling one item of 10,000 changes one member of `items`.
///
/// Every change is one `scan` over a ``Model``; ids come from a counter inside it, so an id
/// is never handed out twice in one instance, even after its item is removed. `toggle`,
/// `remove` and `rename` check their id against the current `items` while decoding, so an
/// unknown id is answered `invalidValue` (`"expected": "the id of an item"`) and nothing
/// changes.
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
        public let items: State<[TodoItem]>
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
            items = State<[TodoItem]>("Every item, in order.", initial: [])
            remaining = State<Int>("How many items are not done.", initial: 0)
            current.items = items
        }
    }

    /// Lets the id inputs' codecs see the list they validate against.
    final class IDLookup {
        weak var items: State<[TodoItem]>?

        func contains(_ id: Int) -> Bool {
            items?.value.contains { $0.id == id } ?? false
        }

        func check(_ id: Int, at path: JSONPath) throws(JSONDecodingError) {
            guard contains(id) else {
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

    /// The list and the next id to hand out.
    struct Model {
        var items: [TodoItem]
        var nextID: Int

        /// Applies `change`; `false` when it changes nothing (renaming to the same title,
        /// clearing when nothing is done).
        mutating func apply(_ change: Change) -> Bool {
            switch change {
            case .add(let title):
                items.append(TodoItem(id: nextID, title: title))
                nextID += 1
                return true
            case .toggle(let id):
                guard let index = items.firstIndex(where: { $0.id == id }) else { return false }
                items[index].done.toggle()
                return true
            case .remove(let id):
                guard let index = items.firstIndex(where: { $0.id == id }) else { return false }
                items.remove(at: index)
                return true
            case .rename(let rename):
                guard let index = items.firstIndex(where: { $0.id == rename.id }), items[index].title != rename.title else { return false }
                items[index].title = rename.title
                return true
            case .clearDone:
                let before = items.count
                items.removeAll { $0.done }
                return items.count != before
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

    /// Folds every change into the list; `items` and `remaining` follow it.
    public init(ports: Ports, context: Context) {
        let seeds = context.args.items
        // A durable instance comes back with its items and its next id (so an id is never
        // handed out twice, even across a restart); any other starts from its arguments.
        let savedItems = context.saved(
            "items", default: seeds.enumerated().map { TodoItem(id: $0.offset + 1, title: $0.element.title, done: $0.element.done ?? false) })
        let savedNextID = context.saved("nextID", default: seeds.count + 1)
        let start = Model(items: savedItems.value, nextID: max(savedNextID.value, (savedItems.value.map(\.id).max() ?? 0) + 1))
        let changes = Observable.merge(
            ports.add.map(Change.add),
            ports.toggle.map(Change.toggle),
            ports.remove.map(Change.remove),
            ports.rename.map(Change.rename),
            ports.clearDone.map { Change.clearDone })
        // (model, changed): a change that changes nothing publishes nothing.
        let lists = changes
            .scan(into: (start, true)) { state, change in state.1 = state.0.apply(change) }
            .filter { $0.1 }
            .do(onNext: { state in if savedNextID.value != state.0.nextID { savedNextID.value = state.0.nextID } })
            .map { $0.0.items }
            .startWith(start.items)
        let shared = lists.share(replay: 1)
        ports.items.bind(shared)
        savedItems.save(shared)
        ports.remaining.bind(shared.map { $0.reduce(0) { $1.done ? $0 : $0 + 1 } }.distinctUntilChanged())
    }
}
