extension Observable {
    /// This observable as `Owner`, the subclass whose initializer stored the `run` (or
    /// `mergeRun`) function that is running.
    ///
    /// Unchecked (`unsafeDowncast`, no dynamic cast on every subscription): sound because each
    /// operator's subclass passes its `run` and `mergeRun` functions only from its own
    /// initializer, and ``Observable`` calls them only with the observable that stores them,
    /// so the observable they receive is always of that subclass. The one place operators use
    /// the idiom (Tests/IntegrationTests/PackageGraph/UncheckedIdiomHomes.swift lists it).
    @inlinable @inline(__always) func asRunOwner<Owner: Observable<Element>>(_ owner: Owner.Type) -> Owner {
        unsafeDowncast(self, to: Owner.self)
    }
}

extension MergeSink {
    /// This merge's subscription as `Owner`, the subclass whose initializer stored the
    /// `receiver` function that is running.
    ///
    /// Unchecked for the reason given on `Observable.asRunOwner(_:)`, on every element a merge
    /// delivers: each subclass of ``MergeSink`` passes its `receiver` only from its own
    /// initializer, and the sink calls it only with itself.
    @inlinable @inline(__always) func asReceiverOwner<Owner: MergeSink<Element>>(_ owner: Owner.Type) -> Owner {
        unsafeDowncast(self, to: Owner.self)
    }
}
