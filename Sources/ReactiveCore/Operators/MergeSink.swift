/// The subscription of a `merge` of a list of sources: one ``MergeSource`` (or
/// ``MergeMapSource``) per source, completed when all are.
///
/// Not a `Sink`, though it keeps the same grammar with the same code (`forward`,
/// `forwardTerminal`, `dispose`): a merge has no single upstream, and a sink's `upstream`
/// field (always empty here) pushed it into a larger malloc chunk (one per merge
/// subscription, a view model's inputs merged).
///
/// The sources are a list linked through `MergeSubscription.next`, not an array: the array's
/// buffer was one more allocation per merge subscription, and the link is a word per source.
/// The list starts at the source linked last and runs backwards: linking a source then moves
/// the list into the new source's `next` and retains only the source (a list kept in
/// subscription order also retained it as its new last and released the old last, per
/// source linked); `dispose` turns the list around before disposing the sources in order.
///
/// What receives the merge's events is a subclass's: ``MergeObserverSink`` hands them to an
/// observer, ``MergeScanSink`` (a `scan` over the merge) accumulates them itself, so a scan of
/// a merge is one object, not a scan sink observing a merge sink. The sources hold this base,
/// which reaches the subclass through `receiver`: a function without captures that each
/// subclass's initializer makes where its types are known, so delivery runs specialized code
/// (a method a generic subclass overrides would run generic code, every element).
///
/// Exclusivity: unchecked, for the reason given on `Sink`: every access is a single read,
/// assignment or array call that runs no other code, so no access spans a call.
@usableFromInline class MergeSink<Element>: DisposableBase, Cancelable {
    /// Receives each event for the subclass that stored it, given the sink it is stored in.
    @usableFromInline typealias Receiver = (MergeSink<Element>, Event<Element>) -> Void

    /// A `let`, as `Sink.observer` is: calling it costs no retain and no exclusivity check.
    @usableFromInline final let receiver: Receiver
    /// The source linked last; each source's `next` is the one linked before it. Held as
    /// their non-generic base: `dispose` is reached through the `Disposable` witness, so it
    /// runs unspecialized, and walking a generic class there looked its metadata up at run
    /// time for every merge disposed.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var latest: MergeSubscription.Next
    /// Sources not completed yet, plus one while `run` is still subscribing them (so a
    /// source that completes at once cannot end the merge before the next one starts).
    /// 32 bits, beside `isDisposed` in one word: no merge has two billion sources.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var running: Int32
    /// Last, so that it takes one byte instead of a padded word.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline final var isDisposed: Bool

    /// A merge handing its events to `receiver`, which a subclass's initializer makes (see above).
    @inlinable init(receiver: @escaping Receiver) {
        self.receiver = receiver
        latest = .end
        running = 1
        isDisposed = false
        super.init()
    }

    @inlinable final func run(_ observables: [Observable<Element>]) {
        for observable in observables {
            guard subscribeSource(observable) else { return }
        }
        sourceCompleted()
    }

    /// ``run(_:)`` with two to four sources held without an array (``SmallMergeObservable``).
    @inlinable final func run(
        _ first: Observable<Element>, _ second: Observable<Element>, _ third: Observable<Element>?,
        _ fourth: Observable<Element>?
    ) {
        guard subscribeSource(first), subscribeSource(second) else { return }
        if let third, !subscribeSource(third) { return }
        if let fourth, !subscribeSource(fourth) { return }
        sourceCompleted()
    }

    /// Subscribes `observable` as one more source; false, subscribing nothing, when this
    /// merge already ended (an earlier source failed during its subscription). Always
    /// inlined: called out of line from `run`, it cost `create` ~20 (`.ci/instructions`).
    @inline(__always)
    @inlinable final func subscribeSource(_ observable: Observable<Element>) -> Bool {
        guard !isDisposed else { return false }
        // A `map`: its source is subscribed by one object doing both jobs (``MergeMapSource``),
        // not by a map sink observed by a merge source. Called through the optional, not
        // bound to a local first, so that the function is not copied (retained and released).
        if observable.mergeRun?(observable, self) == nil {
            let source = MergeSource(sink: self)
            add(source) { observable.subscribe(erased: AnyObserver(eventHandler: source.on)) }
        }
        return true
    }

    /// Adds `source` as running, then gives it the subscription `subscribe` makes (which may
    /// already end it, or the whole merge).
    @inlinable final func add(_ source: MergeSubscription, subscribe: () -> any Disposable) {
        link(source)
        source.setSubscription(subscribe())
    }

    /// Adds `source`, a subject's entry not attached to any, as running, attached to `hub`
    /// as it is: what ``add(_:subscribe:)`` does with `hub.subscribe(source)` for a hub that
    /// only attaches (`ObserverHub.attachesAsSubscribed`), without the existential it returns
    /// (boxed, unboxed and destroyed) or the entry stored as its own subscription. The
    /// source stays `subscribing` (`MergeSubscription.SourceState`), which disposes the same.
    /// Always inlined, as ``link(_:)`` is (see there).
    @inline(__always)
    @inlinable final func add<Input>(_ source: ObserverHub<Input>.Entry, attachedTo hub: ObserverHub<Input>) {
        link(source)
        _ = hub.attach(source)
    }

    /// Puts `source` at the head of the list (the list moved into its `next`, not copied) and
    /// counts it as running. Always inlined where the source is made: there its `next` is
    /// known empty, and storing the list releases nothing (out of line, a release of the
    /// empty link and a reload of `latest` per source cost `create` ~120, `.ci/instructions`).
    @inline(__always)
    @inlinable final func link(_ source: MergeSubscription) {
        source.next = latest.take()
        latest = .source(source)
        running += 1
    }

    @inlinable final func sourceCompleted() {
        running -= 1
        if running == 0 { forwardCompleted() }
    }

    /// `source` ended: it is disposed first, then `error` ends the merge, or (nil, the source
    /// completed) the source counts as done. Both kinds of source end through here.
    @inlinable final func source(_ source: MergeSubscription, endedWith error: (any Error)?) {
        source.dispose()
        if let error {
            forwardError(error)
        } else {
            sourceCompleted()
        }
    }

    @inline(__always)
    @inlinable final func forward(_ element: Element) {
        if !isDisposed { receiver(self, .next(element)) }
    }

    /// Ends the merge with `error`.
    @inlinable final func forwardError(_ error: any Error) {
        forwardTerminal(.error(error))
    }

    /// Ends the merge normally.
    @inlinable final func forwardCompleted() {
        forwardTerminal(.completed)
    }

    /// Disposes every source, then forwards `event` (see `Sink.forwardTerminal`).
    @inlinable final func forwardTerminal(_ event: Event<Element>) {
        guard !isDisposed else { return }
        dispose()
        receiver(self, event)
    }

    @inlinable override final func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        // The list turned around first (it runs from the source linked last), so that the
        // sources are disposed in subscription order; then each link is cut as it is passed,
        // so the sources are freed one by one, not by a recursion as deep as the list. Every
        // link is moved (`take()`), never copied: no retain or release but the frees.
        var backwards = latest.take()
        var forwards = MergeSubscription.Next.end
        while case .source(let source) = backwards.take() {
            backwards = source.next.take()
            source.next = forwards.take()
            forwards = .source(source)
        }
        while case .source(let source) = forwards.take() {
            forwards = source.next.take()
            source.dispose()
        }
    }
}
