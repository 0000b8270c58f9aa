import JSONCore
import ReactiveCore

/// What the factory needs to build one instance.
@usableFromInline struct InstanceSeed {
    @usableFromInline let id: String
    @usableFromInline let args: JSONValue
    @usableFromInline let bag: DisposeBag
    /// Where the event outputs hold what `init` emits until the creator releases it (`nil`
    /// for a type without event outputs).
    @usableFromInline let heldEvents: HeldEvents?
    /// Whether the runtime keeps the typed `Ports` value (for a ``ChildViewModel`` handle).
    @usableFromInline let keepsPorts: Bool
    /// Where the instance's saved values are kept (`nil`: it saves nothing).
    @usableFromInline let savedState: SavedState?
    /// The scheduler, child opener and service clock of the host (shared by its instances).
    @usableFromInline let environment: InstanceEnvironment
}
