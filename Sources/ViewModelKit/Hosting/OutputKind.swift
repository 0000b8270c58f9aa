/// Whether an output has a current value (`state`) or only happens (`event`); the raw values
/// are the wire's `kind`.
public enum OutputKind: String, Sendable, Hashable, CaseIterable {
    /// Has a current value at all times; replayed to new subscribers; `vm.get` reads it.
    case state
    /// A happening with no current value; never replayed.
    case event
}
