import JSONCore
import ReactiveCore
import ViewModelKit

// Small view models declared for the server's tests (the catalog's own types land separately).

/// A number stepped up and down; `milestone` fires on every multiple of 10.
struct Tally: ViewModel {
    static let summary = "A number for the server's tests."

    struct Arguments: JSONConvertible {
        var start: Int
        init(json: JSONValue) throws(JSONDecodingError) { start = try JSONObjectDecoder(json).decode("start", default: 0) }
        var jsonValue: JSONValue { ["start": .integer(Int64(start))] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["start": ["type": "integer", "default": 0]]) }
    }

    struct Ports: ViewModelPorts {
        let add = Input<Int>("Add a step.", default: 1)
        let decrement = Input<Void>("Subtract one.")
        let set = Input<Int>("Replace the number.")
        let count = State<Int>("The number.", initial: 0)
        let milestone = EventOutput<Int>("The number reached a multiple of 10.")
        let parity = State<String>("\"even\" or \"odd\".", initial: "even")
        let reset = ActionPort<Void, Int>("Back to 0.")
    }

    private enum Change { case by(Int), to(Int) }

    init(ports: Ports, context: Context) {
        let reset = Action<Void, Int> { .just(0) }
        ports.reset.bind(reset)
        let start = context.args.start
        let count = Observable.merge(
            ports.add.map(Change.by), ports.decrement.map { Change.by(-1) },
            ports.set.map(Change.to), reset.elements.map(Change.to)
        ).scan(start) { total, change in
            switch change {
            case .by(let step): total + step
            case .to(let value): value
            }
        }.startWith(start).share(replay: 1)
        ports.count.bind(count)
        ports.parity.bind(count.map { $0 % 2 == 0 ? "even" : "odd" }.distinctUntilChanged())
        ports.milestone.bind(count.skip(1).filter { $0 != 0 && $0 % 10 == 0 })
    }
}

/// Actions on virtual time: `work` answers its value after `delayMs`; `fail` fails after
/// `delayMs`; `locked` is never enabled.
struct Slow: ViewModel {
    static let summary = "Slow actions for the server's tests."

    struct Arguments: JSONConvertible {
        var delayMs: Int
        init(json: JSONValue) throws(JSONDecodingError) { delayMs = try JSONObjectDecoder(json).decode("delayMs", default: 100) }
        var jsonValue: JSONValue { ["delayMs": .integer(Int64(delayMs))] }
        static var jsonSchema: JSONValue { JSONSchemaBuilder.object(["delayMs": ["type": "integer", "minimum": 0, "default": 100]]) }
    }

    struct Ports: ViewModelPorts {
        let busy = State<Bool>("work is running.", initial: false)
        let done = EventOutput<Int>("work finished with this value.")
        let work = ActionPort<Int, Int>("Answers its value after delayMs.")
        let fail = ActionPort<Void, Int>("Fails after delayMs.")
        let locked = ActionPort<Void, Int>("Never enabled.")
    }

    init(ports: Ports, context: Context) {
        let delay = Duration.milliseconds(context.args.delayMs)
        let scheduler = context.scheduler
        let work = Action<Int, Int> { value in Observable.just(value).delay(delay, scheduler: scheduler) }
        ports.work.bind(work)
        ports.busy.bind(work.executing)
        ports.done.bind(work.elements)
        let fail = Action<Void, Int> { _ in
            Observable<Int>.just(0).delay(delay, scheduler: scheduler).flatMap { _ in Observable<Int>.error(ActionFailure("It broke.", data: ["reason": "test"])) }
        }
        ports.fail.bind(fail)
        ports.locked.bind(Action<Void, Int>(enabledIf: .just(false)) { _ in .just(1) })
    }
}

/// Opens a Tally child when built: children and `parentDestroyed`.
struct Family: ViewModel {
    static let summary = "A parent with one child, for the server's tests."

    struct Ports: ViewModelPorts {
        let child = State<String>("The child's id.", initial: "")
    }

    init(ports: Ports, context: Context) {
        let childID = (try? context.createChild(type: "Tally")) ?? ""
        ports.child.accept(childID)
    }
}

/// Emits during start-up on the scheduler (an "initial load"): O3.
struct Loader: ViewModel {
    static let summary = "Loads at start-up, for the server's tests."

    struct Ports: ViewModelPorts {
        let items = State<Int>("Loaded item count.", initial: 0)
        let loaded = EventOutput<Int>("The load finished.")
    }

    init(ports: Ports, context: Context) {
        context.scheduler.schedule {
            ports.items.accept(3)
            ports.loaded.accept(3)
        }.disposed(by: context.bag)
    }
}

/// The registry every server test uses.
func testRegistry() throws -> ViewModelRegistry {
    var registry = ViewModelRegistry()
    try registry.register(Tally.self)
    try registry.register(Slow.self)
    try registry.register(Family.self)
    try registry.register(Loader.self)
    return registry
}
