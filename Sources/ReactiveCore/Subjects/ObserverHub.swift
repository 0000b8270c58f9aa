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
/// not two (an allocation and ~64 bytes less per subject, and one pointer hop less per
/// event). That makes this class public, but nothing of it is: it cannot be created,
/// subclassed or used outside this module.
public class ObserverHub<Element> {
    /// One subscription to the subject; disposing it removes the observer.
    @usableFromInline final class Entry: Cancelable {
        /// A `let`, so calling it needs no retain; the entry is freed (with it) once the
        /// hub dropped it and the subscriber released its disposable.
        @usableFromInline let observer: AnyObserver<Element>
        /// Unowned, not weak: a weak reference gives the hub a side table, an allocation per
        /// subscribed subject. Safe because the entry reads it only while not disposed, and
        /// the hub marks every entry it still holds disposed before it goes (its `deinit`;
        /// a terminal event ends them all too; `dispose` marks the entry before removing
        /// it), so it is never read once the hub is gone. `unowned(unsafe)` for the same
        /// reason: the checked form only adds an unowned count to increment and release per
        /// subscription, and keeps a freed subject's memory until its last entry goes.
        ///
        /// `nil` once the entry is disposed or ended: that is what `isDisposed` reads. One
        /// field instead of a reference and a flag keeps the entry at 40 bytes, a 48-byte
        /// malloc chunk instead of 64 (one per subscription to a subject). `Unmanaged`, the
        /// same unowned(unsafe) reference, because testing an optional `unowned(unsafe)`
        /// property for `nil` retains and releases it (~100 instructions per `send`, on
        /// every delivery's check of each observer).
        @exclusivity(unchecked) @usableFromInline final var hub: Unmanaged<ObserverHub>?

        @inlinable init(_ observer: AnyObserver<Element>, hub: ObserverHub) {
            self.observer = observer
            self.hub = Unmanaged.passUnretained(hub)
        }

        @inlinable final var isDisposed: Bool { hub == nil }

        @inlinable func dispose() {
            guard let hub else { return }
            self.hub = nil
            hub.takeUnretainedValue().remove(self)
        }

        @inlinable func end() { hub = nil }
    }

    // No initial values here: a stored property's initial value is compiled into an
    // out-of-line generic function that looks the type metadata of `Entry` and `Event` up at
    // run time (~650 instructions per subject, `.ci/instructions`, `create`); assigned in the
    // inlinable `init`, it specializes in the module that names `Element`.
    //
    // The observers, in subscription order: `first`, then `rest`. Most subjects (a view
    // model's inputs, an action's elements) have exactly one observer for their whole life;
    // keeping it in `first` spares each of them an array buffer (an allocation on subscribe,
    // a free on dispose, ~64 bytes per subject per instance). A new observer goes to `first`
    // only when there is no other, so the order of delivery stays the order of subscription.
    @exclusivity(unchecked) @usableFromInline final var first: Entry?
    @exclusivity(unchecked) @usableFromInline final var rest: ContiguousArray<Entry>
    @exclusivity(unchecked) @usableFromInline final var pending: [Event<Element>]
    // The two flags last and side by side: they then share one 8-byte slot, so a subject's
    // own fields start 8 bytes earlier (a PublishSubject of 56 bytes, a 64-byte malloc chunk
    // instead of 80).
    @exclusivity(unchecked) @usableFromInline final var isDelivering: Bool
    /// Whether `rest` was ever used. The `deinit` reads it instead of `rest.isEmpty`: a
    /// `deinit` never specializes, and any call on `rest` there looks the metadata of the
    /// array and of `Entry` up at run time (~650 instructions per subject freed,
    /// `.ci/instructions`, `create`), for the array most subjects never use.
    @exclusivity(unchecked) @usableFromInline final var usedRest: Bool

    /// A hub with no observers.
    @inlinable init() {
        first = nil
        rest = []
        isDelivering = false
        pending = []
        usedRest = false
    }

    /// Ends the entries still held, so that none of them reads its `hub` any more.
    deinit {
        first?.end()
        if usedRest {
            for entry in rest { entry.end() }
        }
    }

    /// Whether some observer is subscribed.
    @inlinable final var isObserved: Bool { first != nil || !rest.isEmpty }

    @inlinable final func add(_ observer: AnyObserver<Element>) -> Entry {
        let entry = Entry(observer, hub: self)
        if first == nil, rest.isEmpty {
            first = entry
        } else {
            usedRest = true
            rest.append(entry)
        }
        return entry
    }

    @inlinable final func remove(_ entry: Entry) {
        if first === entry {
            first = nil
        } else if let index = rest.firstIndex(where: { $0 === entry }) {
            rest.remove(at: index)
        }
    }

    /// Delivers `event` to every observer, after `prepare` updated the subject's state;
    /// `prepare` returns `false` to drop the event (the subject already ended).
    /// Re-entrant calls are queued and delivered in order by the outermost call.
    @inline(__always)
    @inlinable final func send(_ event: Event<Element>, prepare: (Event<Element>) -> Bool) {
        if isDelivering {
            pending.append(event)
            return
        }
        isDelivering = true
        deliver(event, prepare: prepare)
        if !pending.isEmpty {
            var index = 0
            while index < pending.count {
                let queued = pending[index]
                index += 1
                deliver(queued, prepare: prepare)
            }
            pending.removeAll()
        }
        isDelivering = false
    }

    @inline(__always)
    @inlinable final func deliver(_ event: Event<Element>, prepare: (Event<Element>) -> Bool) {
        guard prepare(event) else { return }
        // Snapshots: observers added meanwhile wait for the next event.
        let firstSnapshot = first
        let snapshot = rest
        if case .next = event {
            if let firstSnapshot, !firstSnapshot.isDisposed { firstSnapshot.observer.on(event) }
            for entry in snapshot where !entry.isDisposed {
                entry.observer.on(event)
            }
        } else {
            // A terminal event: the subject forgets its observers (breaking cycles).
            first = nil
            rest = []
            if let firstSnapshot, !firstSnapshot.isDisposed {
                firstSnapshot.end()
                firstSnapshot.observer.on(event)
            }
            for entry in snapshot where !entry.isDisposed {
                entry.end()
                entry.observer.on(event)
            }
        }
    }
}
