import JSONCore

/// What creates a view model's children: the daemon's ``ViewModelHost`` (real instances,
/// visible in `vm.list` with their parent) or the testing harness (instances it builds
/// itself). A ``ViewModelContext`` holds one.
@usableFromInline package protocol ChildOpening: AnyObject {
    /// Creates a child of instance `parent`, of the type registered as `type`; returns its id.
    func openChild(type: String, args: JSONValue, parent: String) throws(ViewModelError) -> String

    /// Creates a child of instance `parent`, of `type`, and returns a typed handle on it.
    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments, parent: String) throws(ViewModelError) -> ChildViewModel<Child>
}
