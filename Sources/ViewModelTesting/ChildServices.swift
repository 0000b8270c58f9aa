import ViewModelKit

/// The services a ``ViewModelHarness`` gives the children its view model creates with the
/// typed `context.createChild(_:args:)`, by child type. A child type whose `Services` is
/// `Void` needs no entry; any other child type without an entry is not built:
/// `createChild` throws `ViewModelError.unknownType` for it.
///
/// ```swift
/// var rows = ChildServices()
/// rows.register(MessageRow.self, services: FakeMailbox())
/// let inbox = ViewModelHarness(Inbox.self, args: .init(), services: mailbox, scheduler: scheduler, childServices: rows)
/// ```
public struct ChildServices {
    private var byType: [ObjectIdentifier: Any] = [:]

    /// No services for any child type (enough when every child's `Services` is `Void`).
    public init() {}

    /// Children of type `type` get `services`.
    public mutating func register<Child: ViewModel>(_ type: Child.Type, services: Child.Services) {
        byType[ObjectIdentifier(type)] = services
    }

    /// The services registered for `type`, or `()` when it needs none; `nil` when missing.
    func services<Child: ViewModel>(for type: Child.Type) -> Child.Services? {
        if let services = byType[ObjectIdentifier(type)] as? Child.Services { return services }
        return () as Any as? Child.Services
    }
}
