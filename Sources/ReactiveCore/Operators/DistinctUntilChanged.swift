extension ObservableType where Element: Equatable {
    /// Drops elements equal to the previous element.
    ///
    /// Consuming for the reason given on the one-element `startWith(_:)`.
    @inlinable public consuming func distinctUntilChanged() -> Observable<Element> {
        var source = (consume self).asObservable()
        let alone = isKnownUniquelyReferenced(&source)
        // Right after a `scan` (and its `startWith`), the scan's own sink drops them
        // (ScanFusing.swift).
        if let scan = source as? ScanFusing<Element>, let fused = scan.fuseDistinct(==, alone: alone) { return fused }
        return EquatableDistinctObservable(source: source)
    }
}

extension ObservableType {
    /// Drops elements whose key equals the previous element's key.
    @inlinable public func distinctUntilChanged<Key: Equatable>(_ key: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged { try key($0) == key($1) }
    }

    /// Drops elements `areEqual` to the previous element; a comparer that throws fails
    /// the sequence.
    @inlinable public func distinctUntilChanged(_ areEqual: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        DistinctUntilChangedObservable(source: asObservable(), areEqual: areEqual)
    }
}

/// A `distinctUntilChanged`: its source and comparer (see `Observable` for why `run` is stored).
@usableFromInline final class DistinctUntilChangedObservable<Element>: Observable<Element> {
    @usableFromInline let source: Observable<Element>
    @usableFromInline let areEqual: (Element, Element) throws -> Bool

    @inlinable init(source: Observable<Element>, areEqual: @escaping (Element, Element) throws -> Bool) {
        self.source = source
        self.areEqual = areEqual
        super.init(run: { observable, observer in
            // Always this class: only this initializer stores this function.
            let distinct = observable.asRunOwner(DistinctUntilChangedObservable<Element>.self)
            let sink = DistinctUntilChangedSink(observer, distinct.areEqual)
            sink.setUpstream(distinct.source.subscribe(erased: AnyObserver(eventHandler: sink.on)))
            return sink
        }, endsItsSubscription: true)
    }
}
