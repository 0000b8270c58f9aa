import JSONCore
import ReactiveCore
import ViewModelKit

/// A harness's child, whatever its type.
protocol HarnessChild: AnyObject {
    var id: String { get }
    func dispose()
}

/// Opens the children of one harness's view model: records each one, and builds typed ones
/// as harnesses of their own (with the id the view model gave, else numbered per type:
/// `"messagerow-1"`, `"messagerow-2"`).
final class HarnessChildOpener: ChildOpening {
    struct LiveChild {
        let id: String
        let harness: any HarnessChild
    }

    private let scheduler: any SerialScheduler
    private let services: ChildServices
    private let calls: ServiceCallTracker
    private var numbers: [String: Int] = [:]
    /// The children built and not destroyed, in creation order.
    private(set) var live: [LiveChild] = []
    /// Every child opened, destroyed ones included, in order.
    private(set) var opened: [(type: String, args: JSONValue, id: String)] = []

    init(scheduler: any SerialScheduler, services: ChildServices, calls: ServiceCallTracker) {
        self.scheduler = scheduler
        self.services = services
        self.calls = calls
    }

    func openChild(type: String, args: JSONValue, parent: String, id: String?) throws(ViewModelError) -> String {
        try record(type: type, args: args, id: id)
    }

    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments, parent: String, id: String?) throws(ViewModelError) -> ChildViewModel<Child> {
        guard let childServices = services.services(for: type) else {
            // The test forgot to give this child type its services: say which, as the daemon
            // says about a type it does not serve.
            throw .unknownType(type: Child.typeName, known: [])
        }
        let id = try record(type: Child.typeName, args: args.jsonValue, id: id)
        let child = ViewModelHarness(type, args: args, services: childServices, scheduler: scheduler, id: id, childServices: services, calls: calls)
        live.append(LiveChild(id: id, harness: child))
        return ChildViewModel(id: id, ports: child.ports) { [weak self, weak child] in
            guard let child else { return }
            self?.live.removeAll { $0.harness === child }
            child.dispose()
        }
    }

    /// Disposes every live child, in creation order.
    func disposeAll() {
        let children = live
        live = []
        for child in children { child.harness.dispose() }
    }

    /// Records a child opened with `given` id, else the next number of its type; an id a
    /// live child already has is refused as the host refuses it.
    private func record(type: String, args: JSONValue, id given: String?) throws(ViewModelError) -> String {
        let id: String
        if let given {
            guard !live.contains(where: { $0.id == given }) else { throw .instanceExists(instance: given) }
            id = given
        } else {
            let number = numbers[type, default: 0] + 1
            numbers[type] = number
            id = type.lowercased() + "-" + String(number)
        }
        opened.append((type, args, id))
        return id
    }
}
