import JSONCore
import ReactiveCore

/// Creates, finds and destroys view-model instances: the facade the server codes against.
///
/// ## Threading
/// A host and everything it hosts belong to one thread: the thread of `scheduler` (the
/// daemon's event loop; a `TestScheduler`'s test). Every method is called there. Inputs are
/// processed one at a time because each call runs to its end before returning; `async`
/// service work runs in Swift `Task`s and re-enters through `scheduler.enqueue`, so one
/// instance awaiting a service never blocks the others.
///
/// ## Lifetimes
/// An instance lives until ``destroy(_:reason:)`` (its children go first, reason
/// ``CloseReason/parentDestroyed``) or ``destroyAll(reason:)``. Destroying disposes its bag,
/// which releases its whole graph; ``onClose`` then reports it.
///
/// ## Events emitted during `init`
/// What a new instance's event outputs emit while its `init` runs is held (see
/// ``EventOutput``) until ``deliverHeldEvents()``: the creator calls it once it has attached
/// its observers (the server after `vm.create`'s subscription and replay). Whatever the
/// creator does, the host delivers them at the scheduler's next turn at the latest, so a
/// parent that watches a child it created in reaction to an input sees the child's `init`
/// events, and nothing stays queued when nobody watches (they are dropped).
package final class ViewModelHost {
    /// The types this host creates.
    package let registry: ViewModelRegistry
    /// The thread everything runs on, given to every instance.
    package let scheduler: any SerialScheduler
    /// `vm.create` fails with `limitReached` once this many instances (children included) live.
    package var maxInstances: Int {
        get { instanceLimit }
        set { instanceLimit = newValue }
    }
    // Unchecked exclusivity: read once per destroyed instance, the closure copied out before
    // it is called; assigned by the code serving the host, never while it runs.
    /// Called once per destroyed instance, children before their parent, after the instance
    /// was torn down (nothing it emits reaches observers any more).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    package var onClose: ((ViewModelInstance, CloseReason) -> Void)?
    /// Where new instances get their saved state (the server sets it for durable instances).
    package var savedStates: SavedStateSource? {
        get { savedStateSource }
        set { savedStateSource = newValue }
    }
    /// Every registered description, sorted by name (computed once).
    package let types: [ViewModelTypeDescription]
    /// The ids a view model may give the children it creates (`createChild(..., id:)`): what
    /// an invalid one is told was expected, and the test. A server sets the rule its clients'
    /// ids follow; by default any non-empty id.
    package var childIDRule: (expected: String, accepts: (String) -> Bool) = ("a non-empty string", { !$0.isEmpty })

    // Unchecked exclusivity, on `live`, `nextSequence`, `nextNumber` and `pendingHeldEvents`:
    // every access is one read, assignment or collection call on the host's thread that runs
    // no view-model code (an instance removed from `live` is still held by the caller, so no
    // deinit runs inside the access; `deliverHeldEvents` releases held events from a copy),
    // so no access spans another. The dynamic checks ran about ten times per `vm.create` and
    // its teardown (their cost: ViewModelDaemon.docc/Performance.md).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var live: [String: ViewModelInstance] = [:]
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var nextSequence: UInt64 = 0
    /// Per registered type, the next number its generated ids try, and whether a generated
    /// id may be taken already.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var nextNumber: GeneratedIDNumbers
    /// The held `init` events of instances created since the last delivery, in creation order.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var pendingHeldEvents: [HeldEvents] = []
    /// The type the last `create` named: a client creating many instances names the same
    /// type again and again, and comparing the name is cheaper than hashing it. (Unchecked
    /// exclusivity as for `live`: single reads and assignments.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var lastCreated: (name: String, type: RegisteredType)?
    /// The type name the last ``create(type:id:args:parent:)`` found: a reader of requests
    /// reuses it for a name with the same bytes instead of making the same `String` again.
    package var lastCreatedTypeName: String? { lastCreated?.name }
    /// What every instance's context shares: the scheduler, the opener its children are
    /// created with, and the service clock (InstanceEnvironment.swift).
    private lazy var environment = InstanceEnvironment(
        scheduler: scheduler, children: HostChildOpener(host: self), serviceClock: .continuous)
    /// The clock every instance's `context.clock` is, and who watches their service calls:
    /// real time for the daemon; virtual and tracked when ViewModelTesting's `TapePlayer`
    /// replays a tape on a `TestScheduler`. Instances created before a change keep theirs.
    package var serviceClock: ServiceClock {
        get { environment.serviceClock }
        set {
            environment = InstanceEnvironment(scheduler: scheduler, children: environment.children, serviceClock: newValue)
        }
    }

    // The storage of `maxInstances` and `savedStates`: private, and every access a single
    // read or assignment, so the optimizer sees that none can overlap another and checks
    // them statically; `create` reads each (a `package` stored property, which other
    // modules access directly, was checked dynamically on each read:
    // ViewModelDaemon.docc/Performance.md).
    private var instanceLimit: Int
    private var savedStateSource: SavedStateSource?

    /// A host creating `registry`'s types on `scheduler`'s thread.
    package init(registry: ViewModelRegistry, scheduler: any SerialScheduler, maxInstances: Int = 100_000) {
        self.registry = registry
        self.scheduler = scheduler
        self.instanceLimit = maxInstances
        self.types = registry.types
        self.nextNumber = GeneratedIDNumbers(
            next: Array(repeating: 1, count: registry.count), mayBeTaken: !registry.idPrefixesAreDistinct)
    }

    /// The description of type `name` (`vm.types {type}`).
    package func type(named name: String) throws(ViewModelError) -> ViewModelTypeDescription {
        guard let description = registry.type(named: name) else { throw .unknownType(type: name, known: registry.names) }
        return description
    }

    /// The live instances in creation order (`vm.list`).
    package var instances: [ViewModelInstance] {
        live.values.sorted { $0.sequence < $1.sequence }
    }

    /// How many instances live.
    package var count: Int { live.count }

    /// The live instance `id`.
    package func instance(_ id: String) throws(ViewModelError) -> ViewModelInstance {
        guard let instance = live[id] else { throw .unknownInstance(instance: id) }
        return instance
    }

    /// Refuses a child id that ``childIDRule`` does not accept (`nil`, a generated id, passes).
    func checkChildID(_ id: String?, type: String) throws(ViewModelError) {
        guard let id, !childIDRule.accepts(id) else { return }
        throw .invalidValue(.childID(type: type), path: .root, expected: childIDRule.expected, got: "string")
    }

    /// Creates an instance of `type` (`vm.create`).
    ///
    /// - Parameters:
    ///   - type: the registered type's name.
    ///   - id: the client's id (the server checks its pattern), or `nil` to generate one
    ///     (`"counter-1"`: the lower-cased type name and a per-type number, skipping taken ids).
    ///   - args: the creation arguments; `nil` means `{}` (omitted members take defaults).
    ///   - parent: the instance creating this one; the child is destroyed with it.
    /// - Throws: `unknownType`, `unknownInstance` (parent), `instanceExists`, `limitReached`,
    ///   `invalidValue` (args, with the path inside them). Nothing is created then.
    ///
    /// Events the view model emits during its `init` wait for ``deliverHeldEvents()`` (at
    /// the latest the scheduler's next turn): attach observers first, then deliver.
    @discardableResult
    package func create(type: String, id: String? = nil, args: JSONValue? = nil, parent: String? = nil) throws(ViewModelError) -> ViewModelInstance {
        try create(type: type, id: id, args: args, parent: parent, keepingPorts: false)
    }

    /// ``create(type:id:args:parent:)``, keeping the typed `Ports` value when `keepingPorts`
    /// (a parent's ``ChildViewModel`` handle drives the instance through it).
    func create(type: String, id: String?, args: JSONValue?, parent: String?, keepingPorts: Bool) throws(ViewModelError) -> ViewModelInstance {
        let registered: RegisteredType
        if let lastCreated, lastCreated.name == type {
            registered = lastCreated.type
        } else {
            guard let found = registry.entry(named: type) else { throw .unknownType(type: type, known: registry.names) }
            registered = found
            lastCreated = (type, found)
        }
        let parentInstance: ViewModelInstance?
        if let parent {
            guard let found = live[parent] else { throw .unknownInstance(instance: parent) }
            parentInstance = found
        } else {
            parentInstance = nil
        }
        if let id, live[id] != nil { throw .instanceExists(instance: id) }
        guard live.count < instanceLimit else { throw .limitReached(limit: "maxInstances", value: instanceLimit) }
        let target = ViewModelError.ValueTarget.args(type: type)
        let checkedArgs: JSONValue
        if args == nil, let omitted = registered.omittedArgs {
            checkedArgs = omitted
        } else {
            switch ValueRule.check(args ?? [:], against: registered.argsSchema) {
            case .success(let value): checkedArgs = value
            case .failure(let violation):
                throw .invalidValue(target, path: violation.path, expected: violation.expected, got: violation.got)
            }
        }

        // An id chosen rather than generated may be one this host would generate later.
        if id != nil { nextNumber.mayBeTaken = true }
        let instanceID = id ?? generateID(for: registered)
        nextSequence += 1
        let instance = ViewModelInstance(id: instanceID, registered: registered, parent: parent, sequence: nextSequence)
        // Registered before the view model's init runs, so init may already open children.
        live[instanceID] = instance
        parentInstance?.addChild(instanceID)
        // Only event outputs hold what `init` emits: a type without any needs no HeldEvents.
        let heldEvents = registered.holdsEvents ? HeldEvents() : nil
        let savedState = savedStateSource?.stateForNewInstance(instance, checkedArgs, keepingPorts)
        let seed = InstanceSeed(
            id: instanceID, args: checkedArgs, bag: DisposeBag(), heldEvents: heldEvents, keepsPorts: keepingPorts,
            savedState: savedState, environment: environment)
        do throws(JSONDecodingError) {
            let (runtime, ports) = try registered.build(seed)
            instance.install(runtime, ports: ports)
        } catch {
            heldEvents?.discard()
            live[instanceID] = nil
            parentInstance?.removeChild(instanceID)
            throw ViewModelInstance.invalid(target, error)
        }
        if let savedState { savedStateSource?.instanceCreated(instance, checkedArgs, savedState) }
        if let heldEvents, heldEvents.isHolding {
            instance.keepHeldEvents(heldEvents)
            holdUntilDelivered(heldEvents)
        }
        return instance
    }

    /// Delivers the events that instances created since the last call emitted during their
    /// `init`, instance by instance in creation order, to whoever observes them now; drops
    /// them where nobody does. Call it after attaching the observers of a creation (the
    /// server does, after `vm.create`'s replay); the host calls it itself at the scheduler's
    /// next turn otherwise.
    package func deliverHeldEvents() {
        while !pendingHeldEvents.isEmpty {
            let pending = pendingHeldEvents
            pendingHeldEvents = []
            for held in pending { held.release() }
        }
    }

    private func holdUntilDelivered(_ held: HeldEvents) {
        if pendingHeldEvents.isEmpty {
            scheduler.schedule { [weak self] in self?.deliverHeldEvents() }
        }
        pendingHeldEvents.append(held)
    }

    /// Destroys instance `id` and, first, its children (reason ``CloseReason/parentDestroyed``).
    /// ``onClose`` reports each one.
    package func destroy(_ id: String, reason: CloseReason = .destroyed) throws(ViewModelError) {
        guard let index = live.index(forKey: id) else { throw .unknownInstance(instance: id) }
        // The value alone: `live[index]` copied the id (its key) too, retained and released.
        tearDown(live.values[index], reason: reason, childReason: .parentDestroyed, index: index)
    }

    /// Destroys every instance, each with `reason` (at shutdown, children too are closed
    /// with `shutdown`, not `parentDestroyed`).
    package func destroyAll(reason: CloseReason = .shutdown) {
        // Creation order puts parents before their children, which go with them.
        for instance in instances where live[instance.id] != nil {
            tearDown(instance, reason: reason, childReason: reason)
        }
    }

    /// Tears `instance` down, its children first. `index`: where `live` holds it, when the
    /// caller just looked it up; used (instead of hashing the id again, a string hash per
    /// `vm.destroy`) only when no child was removed from `live` since, which would move it.
    private func tearDown(
        _ instance: ViewModelInstance, reason: CloseReason, childReason: CloseReason,
        index: Dictionary<String, ViewModelInstance>.Index? = nil
    ) {
        let children = instance.children
        for child in children {
            if let childInstance = live[child] { tearDown(childInstance, reason: childReason, childReason: childReason) }
        }
        if let index, children.isEmpty {
            live.remove(at: index)
        } else {
            live[instance.id] = nil
        }
        if let parent = instance.parent { live[parent]?.removeChild(instance.id) }
        instance.close()
        onClose?(instance, reason)
    }

    private func generateID(for registered: RegisteredType) -> String {
        // Every type of the host's registry has a slot; the check only keeps this total.
        let slot = registered.ordinal
        let counted = slot < nextNumber.next.count
        var number = counted ? nextNumber.next[slot] : 1
        var candidate = registered.generatedID(number: number)
        while nextNumber.mayBeTaken || !counted, live[candidate] != nil {
            number += 1
            candidate = registered.generatedID(number: number)
        }
        if counted { nextNumber.next[slot] = number + 1 }
        return candidate
    }

    /// What ``generateID(for:)`` keeps between calls.
    private struct GeneratedIDNumbers {
        /// Per registered type (by its ``RegisteredType/ordinal``), the next number its
        /// generated ids try.
        var next: [Int]
        /// Whether a generated id may be live already. A type's numbers only grow and its id
        /// prefix is its own, so a generated id is new (and needs no lookup in the instance
        /// table, a string hash per `vm.create`) until an instance gets an id another way (a
        /// client's or a parent's choice, a durable instance restored under its id), from
        /// then on, or from the start when two types share a prefix (names differing only in
        /// case).
        var mayBeTaken: Bool
    }
}
