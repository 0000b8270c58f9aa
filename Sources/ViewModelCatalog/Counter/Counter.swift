import JSONCore
import ReactiveCore
import ViewModelKit

/// The smallest catalog example (benchmarks use it): a number stepped up and down, set, and
/// reset. It saves its count (`context.saved`), so a durable instance keeps it across restarts.
///
/// The count is one `scan` over every change (steps, sets, resets), so there is no mutable
/// variable to keep in sync; a change that leaves the count as it was publishes nothing.
/// Arithmetic saturates at the 64-bit bounds instead of trapping: a client sending
/// `increment 9223372036854775807` twice gets the maximum, not a crashed daemon.
public struct Counter: ViewModel {
    public static let summary = "A number you can step up and down."

    /// `{"start": integer}`: the count before any input, its default written once below.
    public struct Arguments: ViewModelArguments, Equatable {
        /// The count before any input.
        public var start = 0

        /// Every argument at its default.
        public init() {}

        /// The arguments with `start` given.
        public init(start: Int) {
            self.start = start
        }
    }

    /// The ports, in wire order: each property's name is its wire name, its first argument
    /// its summary in `vm.types`.
    public struct Ports: ViewModelPorts {
        public let increment = Input<Int>("Add step to the count.", codec: StepCodec.codec, default: 1)
        public let decrement = Input<Int>("Subtract step from the count.", codec: StepCodec.codec, default: 1)
        public let set = Input<Int>("Replace the count.")
        public let count = State<Int>("The current count.", initial: 0)
        public let reset = ActionPort<Void, Int>("Set the count to 0; returns 0.")

        public init() {}
    }

    /// One thing that can happen to the count.
    private enum Change {
        case add(Int)
        case subtract(Int)
        case replace(Int)

        func applied(to count: Int) -> Int {
            switch self {
            case .add(let step): Self.saturating(count.addingReportingOverflow(step), positive: step > 0)
            case .subtract(let step): Self.saturating(count.subtractingReportingOverflow(step), positive: step < 0)
            case .replace(let value): value
            }
        }

        /// The result, or the bound it crossed.
        private static func saturating(_ result: (partialValue: Int, overflow: Bool), positive: Bool) -> Int {
            guard result.overflow else { return result.partialValue }
            return positive ? .max : .min
        }
    }

    public init(ports: Ports, context: Context) {
        let reset = Action<Void, Int> { .just(0) }
        ports.reset.bind(reset)
        let changes = Observable.merge(
            ports.increment.map(Change.add),
            ports.decrement.map(Change.subtract),
            ports.set.map(Change.replace),
            reset.elements.map(Change.replace))
        // A durable instance comes back with the count it had; any other starts at `start`.
        let saved = context.saved("count", default: context.args.start)
        let start = saved.value
        ports.count.bind(
            changes
                .scan(start) { count, change in change.applied(to: count) }
                .startWith(start)
                .distinctUntilChanged())
        saved.save(ports.count)
    }
}
