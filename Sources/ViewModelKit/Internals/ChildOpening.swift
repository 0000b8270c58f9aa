import JSONCore

/// What creates a view model's children: the daemon's ``ViewModelHost`` (real instances,
/// visible in `vm.list` with their parent) or the testing harness (instances it builds
/// itself). A ``ViewModelContext`` holds one.
@usableFromInline package protocol ChildOpening: AnyObject {
    /// Creates a child of instance `parent`, of the type registered as `type`, with id `id`
    /// (`nil`: a generated one); returns its id.
    func openChild(type: String, args: JSONValue, parent: String, id: String?) throws(ViewModelError) -> String

    /// Creates a child of instance `parent`, of `type`, with id `id` (`nil`: a generated one),
    /// and returns a typed handle on it.
    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments, parent: String, id: String?) throws(ViewModelError) -> ChildViewModel<Child>
}
