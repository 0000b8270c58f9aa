import ReactiveCore
import ViewModelKit

/// The one type the test app serves: a name in, a greeting out.
struct Greeter: ViewModel {
    static let summary = "Greets whoever it is told about."

    struct Ports: ViewModelPorts {
        let name = Input<String>("Who to greet.")
        let greeting = State<String>("The current greeting.", initial: "Hello, world!")

        init() {}
    }

    init(ports: Ports, context: Context) {
        ports.greeting.bind(ports.name.map { "Hello, \($0)!" })
    }
}
