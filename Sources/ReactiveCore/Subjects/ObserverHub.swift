/// The observers of a subject, and the trampoline that serializes its deliveries.
///
/// Delivery iterates a snapshot of the observers, so observers may subscribe or dispose
/// while an event is delivered: a disposed one is skipped from then on, a new one receives
/// the next event. An event sent while an event is being delivered (re-entrantly, by an
/// observer) is queued and delivered once the current delivery finished, so every observer
/// sees the events in the same order.
///
/// Exclusivity: stored properties are `@exclusivity(unchecked)` (dynamic checks dominated the
/// event path). Safe because every access is instantaneous: observers are copied into locals
/// before they are called, arrays are mutated by single calls that run no user code, and
/// re-entrant sends only append to `pending`, which no access spans.
///
/// Inlinable, like `Sink` (see there): `send` is every subject's per-event path.
///
/// The subjects are its subclasses rather than holders of a hub, so a subject is one object,
/// not two (an allocation less per subject, and one pointer hop less per event). That makes this class public, but nothing of it is: it cannot be created,
/// subclassed or used outside this package. It is `open` for one subclass in the package, a view
/// model's input (ViewModelKit's `Input`), which is its own subject the same way; its
/// initializer and the members such a subclass uses are `package`.
open class ObserverHub<Element> {
    /// One subscription to the subject; disposing it removes the observer.
    /// One observer of the subject. A merge's source can be its own entry (a `map` of a
    /// `PublishSubject` merged, ``MergeMapSource``): one object instead of an entry and a
    /// source; hence the base, whose fields a plain entry leaves empty.
    @usableFromInline class Entry: MergeSubscription, Cancelable {
        @usableFromInline let observer: AnyObserver<Element>
        #if !DEBUG
        @exclusivity(unchecked)
        #endif
        @usableFromInline final var hub: Unmanaged<ObserverHub>?

        /// What receives, given this entry: `observer`, or for an entry that is a merge's
        /// source, a function made where its types are known, so that delivery runs
        /// specialized code (a method overridden in a generic subclass would not). Neither
        /// captures anything: no closure context is allocated.
        @usableFromInline let receiver: (Entry, Event<Element>) -> Void

        @inlinable init(_ observer: AnyObserver<Element>, hub: ObserverHub) {
            self.observer = observer
            self.hub = Unmanaged.passUnretained(hub)
            receiver = { entry, event in entry.observer.on(event) }
            super.init(outsideMerge: ())
        }

        /// An entry that receives through `receiver`, attached later.
        @inlinable init(receiver: @escaping (Entry, Event<Element>) -> Void) {
            observer = AnyObserver { _ in }
            hub = nil
            self.receiver = receiver
            super.init()
        }

        @inlinable final var isDisposed: Bool { hub == nil }

        @inline(__always)
        @inlinable final func receive(_ event: Event<Element>) { receiver(self, event) }

        @inlinable override func dispose() {
            super.dispose()
            guard let hub else { return }
            self.hub = nil
            hub.takeUnretainedValue().remove(self)
        }

        @inlinable final func end() { hub = nil }
    }

    @usableFromInline final class Overflow {
        #if !DEBUG
        @exclusivity(unchecked)
        #endif
        @usableFromInline var rest: ContiguousArray<Entry>
        #if !DEBUG
        @exclusivity(unchecked)
        #endif
        @usableFromInline var pending: [Event<Element>]
        #if !DEBUG
        @exclusivity(unchecked)
        #endif
        @usableFromInline var terminal: StopEvent?

        @inlinable init() {
            rest = []
            pending = []
            terminal = nil
        }
    }

    // No initial values here: a stored property's initial value is compiled into an
    // out-of-line generic function that looks the type metadata of `Entry` and `Event` up at
    // run time for every subject (`.ci/instructions`, `create`); assigned in the
    // inlinable `init`, it specializes in the module that names `Element`.
    //
    // The observers, in subscription order: `first`, then `overflow.rest`. Most subjects have
    // exactly one observer for their whole life; keeping it in `first` spares each of them an
    // array buffer and the overflow object. A new observer goes to `first` only when there is
    // no other, so the order of delivery stays the order of subscription.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var first: Entry?
    /// Made on first need, never replaced or dropped once made (so a local copy of it stays
    /// the hub's). The `deinit` tests it for `nil` instead of touching `rest`: a `deinit`
    /// never specializes, and any call on the array there looks the metadata of the array
    /// and of `Entry` up at run time for every subject freed (`.ci/instructions`, `create`),
    /// for the array most subjects never use.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var overflow: Overflow?
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var isDelivering: Bool

    /// A hub with no observers.
    @inlinable package init() {
        first = nil
        overflow = nil
        isDelivering = false
    }

    /// Ends the entries still held, so that none of them reads its `hub` any more.
    deinit {
        first?.end()
        if let overflow {
            for entry in overflow.rest { entry.end() }
        }
    }

    /// Whether subscribing an entry not attached yet does nothing but ``attach(_:)`` it: true
    /// for a hub that replays nothing and has not ended (an input, whose `subscribe` is
    /// ``subscribeObserver(_:)``). A merge then attaches its mapped source here itself
    /// (`MergeSink.add(_:attachedTo:)`), without the subscription passing through an
    /// existential. The subjects that replay on subscription, or may have ended, override it.
    /// Called on a final subject's static type, the override is chosen at compile time.
    @inlinable var attachesAsSubscribed: Bool { true }

    /// Whether some observer is subscribed.
    @inlinable final var isObserved: Bool {
        if first != nil { return true }
        guard let overflow else { return false }
        return !overflow.rest.isEmpty
    }

    /// ``overflow``, made now if this is its first need.
    @inlinable final func madeOverflow() -> Overflow {
        if let overflow { return overflow }
        let made = Overflow()
        overflow = made
        return made
    }

    /// Subscribes `observer`: a merge's source that is its own entry (``MergeMapSource``, not
    /// attached yet) is attached as it is (resolved when this is specialized); any other
    /// observer gets an entry. For a hub that has not ended.
    @inlinable package final func subscribeObserver<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        if let entry = observer as? Entry, entry.hub == nil, !entry.isDone { return attach(entry) }
        return add(AnyObserver(observer))
    }

    /// Delivers `element` to every observer, for a hub that never ends (an input).
    @inlinable package final func publish(_ element: Element) {
        send(.next(element)) { _ in true }
    }

    @inlinable final func add(_ observer: AnyObserver<Element>) -> Entry {
        attach(Entry(observer, hub: self))
    }

    /// Adds `entry`, made for this hub or not yet attached to any.
    @inlinable final func attach(_ entry: Entry) -> Entry {
        entry.hub = Unmanaged.passUnretained(self)
        if first == nil, overflow?.rest.isEmpty ?? true {
            first = entry
        } else {
            madeOverflow().rest.append(entry)
        }
        return entry
    }

    /// Small enough to be inlined into `Entry.dispose`, where most entries are `first`: the
    /// search of the overflow is a call of its own (a call less per disposal).
    @inline(__always)
    @inlinable final func remove(_ entry: Entry) {
        if first === entry {
            first = nil
        } else {
            removeFromOverflow(entry)
        }
    }

    @inlinable final func removeFromOverflow(_ entry: Entry) {
        if let overflow, let index = overflow.rest.firstIndex(where: { $0 === entry }) {
            overflow.rest.remove(at: index)
        }
    }

    /// Delivers `event` to every observer, after `prepare` updated the subject's state;
    /// `prepare` returns `false` to drop the event (the subject already ended).
    /// Re-entrant calls are queued and delivered in order by the outermost call.
    @inline(__always)
    @inlinable final func send(_ event: Event<Element>, prepare: (Event<Element>) -> Bool) {
        if isDelivering {
            madeOverflow().pending.append(event)
            return
        }
        isDelivering = true
        deliver(event, prepare: prepare)
        // Read after the delivery: a re-entrant send may have made it.
        if let overflow, !overflow.pending.isEmpty {
            var index = 0
            while index < overflow.pending.count {
                let queued = overflow.pending[index]
                index += 1
                deliver(queued, prepare: prepare)
            }
            overflow.pending.removeAll()
        }
        isDelivering = false
    }

    @inline(__always)
    @inlinable final func deliver(_ event: Event<Element>, prepare: (Event<Element>) -> Bool) {
        guard prepare(event) else { return }
        // Snapshots: observers added meanwhile wait for the next event.
        let firstSnapshot = first
        let snapshot = overflow?.rest
        if case .next = event {
            if let firstSnapshot, !firstSnapshot.isDisposed { firstSnapshot.receive(event) }
            if let snapshot {
                for entry in snapshot where !entry.isDisposed {
                    entry.receive(event)
                }
            }
        } else {
            // A terminal event: the subject forgets its observers (breaking cycles).
            first = nil
            overflow?.rest = []
            if let firstSnapshot, !firstSnapshot.isDisposed {
                firstSnapshot.end()
                firstSnapshot.receive(event)
            }
            if let snapshot {
                for entry in snapshot where !entry.isDisposed {
                    entry.end()
                    entry.receive(event)
                }
            }
        }
    }
}
