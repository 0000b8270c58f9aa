import JSONCore

/// What creates a view model's children: the daemon's ``ViewModelHost`` (real instances,
/// visible in `vm.list` with their parent) or the testing harness (instances it builds
/// itself). A ``ViewModelContext`` holds one.
package protocol ChildOpening: AnyObject {
    /// Creates a child instance of the type registered as `type`; returns its id.
    func openChild(type: String, args: JSONValue) throws(ViewModelError) -> String

    /// Creates a child instance of `type` and returns a typed handle on it.
    func openChild<Child: ViewModel>(_ type: Child.Type, args: Child.Arguments) throws(ViewModelError) -> ChildViewModel<Child>
}
