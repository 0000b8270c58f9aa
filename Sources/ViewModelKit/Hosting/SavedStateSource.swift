import JSONCore

/// Where a host's new instances get their ``SavedState`` (the daemon's durability, in
/// VMServer's `Server+Durable.swift`). Without one, no instance saves anything.
package struct SavedStateSource {
    /// Called for each new instance before its view model's `init` runs, with its checked
    /// creation arguments and whether its parent drives it through a typed
    /// ``ChildViewModel`` handle (such a child is part of its parent's state: a handle does
    /// not outlive the process, so the parent makes it again): the state it saves into, or
    /// `nil` for none.
    package var stateForNewInstance: (_ instance: ViewModelInstance, _ args: JSONValue, _ drivenByParent: Bool) -> SavedState?
    /// Called once the view model's `init` returned, for an instance that got a state (an
    /// `init` that fails creates nothing, and this is not called).
    package var instanceCreated: (ViewModelInstance, JSONValue, SavedState) -> Void

    /// A source from its two steps.
    package init(
        stateForNewInstance: @escaping (_ instance: ViewModelInstance, _ args: JSONValue, _ drivenByParent: Bool) -> SavedState?,
        instanceCreated: @escaping (ViewModelInstance, JSONValue, SavedState) -> Void
    ) {
        self.stateForNewInstance = stateForNewInstance
        self.instanceCreated = instanceCreated
    }
}
