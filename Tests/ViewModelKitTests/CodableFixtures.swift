import JSONCore
import ReactiveCore
import ViewModelKit

// View models whose values are plain Codable types, as an app writes them: no hand-written
// init(json:), jsonValue or jsonSchema anywhere.

/// A to-do item: three fields, Codable by synthesis.
struct TodoItem: Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var done: Bool
}

/// Which items to show; lists its cases, so its schema does.
enum TodoFilter: String, Codable, Sendable, CaseIterable {
    case all, open, done
}

/// A raw-value enumeration that cannot list its cases.
enum Urgency: String, Codable, Sendable {
    case low, high
}

/// A to-do list: Codable values in every kind of port.
struct Todos: ViewModel {
    static let summary = "A to-do list."

    struct Arguments: ViewModelArguments, Equatable {
        var title = "Today"
        var limit = 50
        var owner: String?
    }

    struct Ports: ViewModelPorts {
        let add = Input<TodoItem>("Add an item.")
        let filter = Input<TodoFilter>("Show only some items.", default: .all)
        let urgency = Input<Urgency>("How urgent the list is.")
        let items = State<[TodoItem]>("The items the filter shows.", initial: [])
        let lastUrgency = State<Urgency?>("The last urgency sent, if any.", initial: nil)
        let added = EventOutput<TodoItem>("An item was added.")
        let flip = ActionPort<TodoItem, TodoItem>("Returns the item with done flipped.")
        let count = ActionPort<Void, [String: Int]>("Counts items by state.")
        let remove = ActionPort<Int, Void>("Removes nothing; accepts an id.")
    }

    init(ports: Ports, context: Context) {
        let all = ports.add.scan([TodoItem]()) { items, item in Array((items + [item]).suffix(context.args.limit)) }
            .startWith([])
            .share(replay: 1)
        let shown = Observable.combineLatest(all, ports.filter.startWith(.all)) { items, filter in
            items.filter { item in
                switch filter {
                case .all: true
                case .open: !item.done
                case .done: item.done
                }
            }
        }
        ports.items.bind(shown)
        ports.added.bind(ports.add)
        ports.lastUrgency.bind(ports.urgency.map { Optional($0) })
        let flip = Action<TodoItem, TodoItem> { item in
            var flipped = item
            flipped.done.toggle()
            return .just(flipped)
        }
        ports.flip.bind(flip)
        let count = Action<[TodoItem], [String: Int]> { items in
            .just(["open": items.filter { !$0.done }.count, "done": items.filter(\.done).count])
        }
        ports.count.bind(count, with: all)
        ports.remove.bind(Action<Int, Void> { _ in .just(()) })
    }
}

/// Codable by synthesis and JSONConvertible by hand, with different wire forms, so a test
/// can tell which codec a port picked.
struct Labelled: Codable, JSONConvertible, Sendable, Equatable {
    var label: String

    init(label: String) { self.label = label }

    init(json: JSONValue) throws(JSONDecodingError) {
        label = try JSONObjectDecoder(json).decode("hand")
    }

    var jsonValue: JSONValue { ["hand": .string(label)] }

    static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["hand": ["type": "string"]], required: ["hand"]) }
}

/// Ports over a type that is both Codable and JSONConvertible.
struct LabelEcho: ViewModel {
    static let summary = "Echoes labels."

    struct Ports: ViewModelPorts {
        let label = Input<Labelled>("A label.")
        let current = State<Labelled>("The last label.", initial: Labelled(label: "none"))
        let echo = ActionPort<Labelled, TodoItem>("Makes an item titled with the label.")
    }

    init(ports: Ports, context: Context) {
        ports.current.bind(ports.label)
        ports.echo.bind(Action<Labelled, TodoItem> { label in .just(TodoItem(id: 0, title: label.label, done: false)) })
    }
}
