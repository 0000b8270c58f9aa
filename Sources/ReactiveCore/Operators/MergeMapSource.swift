/// One source of a merge that is a `map`: the map's transform and the merge source in one
/// object, subscribed to the map's own source.
///
/// It delivers what a ``MergeSource`` observing a `MapSink` would: each element transformed
/// and forwarded; a transform that throws ends this source first (its subscription
/// disposed), then fails the merge, as the map sink would dispose its upstream before
/// forwarding the error; `completed` ends this source and counts it as done. A view model
/// merging mapped inputs (the usual way to combine them) keeps one object per input instead
/// of two, and each element
/// takes one call less (`vmd-bench create`, `.ci/instructions`, `create` and `send`).
///
/// Subscribed to a `PublishSubject` (a view model's input), it is also the subject's entry
/// for this observer (`ObserverHub.Entry`, its base): the subject delivers to it directly and
/// disposing it removes it from the subject; one object instead of two again.
///
/// Exclusivity unchecked, as on ``MergeSource`` (the fields are its bases').
@usableFromInline final class MergeMapSource<Input, Output>: ObserverHub<Input>.Entry, ObserverType {
    @usableFromInline typealias Element = Input

    @usableFromInline let sink: MergeSink<Output>
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable init(sink: MergeSink<Output>, transform: @escaping (Input) throws -> Output) {
        self.sink = sink
        self.transform = transform
        super.init(receiver: { entry, event in
            // Always this class: only this initializer stores this function.
            (entry as? MergeMapSource<Input, Output>)?.on(event)
        })
    }

    @inlinable func on(_ event: Event<Input>) {
        guard !isDone else { return }
        switch event {
        case .next(let element):
            // The transform may end this source re-entrantly (its source ends, or the merge is
            // disposed); what it returns or throws is then dropped, as the map sink would drop it.
            do {
                let mapped = try transform(element)
                guard !isDone else { return }
                sink.forward(mapped)
            } catch {
                guard !isDone else { return }
                sink.source(self, endedWith: error)
            }
        case .error(let error):
            sink.source(self, endedWith: error)
        case .completed:
            sink.source(self, endedWith: nil)
        }
    }
}
