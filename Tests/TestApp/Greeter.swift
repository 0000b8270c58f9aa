import ReactiveCore
import ViewModelKit

/// The one type the test app serves: a name in, a greeting out, and a queued action.
struct Greeter: ViewModel {
    static let summary = "Greets whoever it is told about."

    /// The longest `pause` waits.
    static let longestPause = 10_000

    struct Ports: ViewModelPorts {
        let name = Input<String>("Who to greet.")
        let greeting = State<String>("The current greeting.", initial: "Hello, world!")
        let pause = ActionPort<Int, Int>(
            "Wait this many milliseconds (at most 10000) and answer them; executions queue and answer in order.")

        init() {}
    }

    init(ports: Ports, context: Context) {
        ports.greeting.bind(ports.name.map { "Hello, \($0)!" })
        // The queue strategy over a real socket (Tests/IntegrationTests/QueueOverSocketTests.swift).
        let pause: Action<Int, Int> = context.action(strategy: .queue) { (milliseconds: Int) in
            try await Task.sleep(for: .milliseconds(min(max(0, milliseconds), Greeter.longestPause)))
            return milliseconds
        }
        ports.pause.bind(pause)
    }
}
