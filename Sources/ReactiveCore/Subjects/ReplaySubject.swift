/// A subject that replays up to `bufferSize` latest elements to each new subscriber, then
/// forwards live events; after the end it replays the buffer followed by the terminal event.
///
/// Re-entrant events are trampolined and the buffer changes on delivery (see ``PublishSubject``).
public final class ReplaySubject<Element>: ObserverHub<Element>, ObservableType, ObserverType {
    @usableFromInline var terminal: Event<Element>?
    @usableFromInline var buffer: [Element]
    @usableFromInline var start: Int
    @usableFromInline let bufferSize: Int

    @inlinable init(bufferSize: Int) {
        self.terminal = nil
        self.buffer = []
        self.start = 0
        self.bufferSize = max(0, bufferSize)
        super.init()
    }

    /// A subject replaying the latest `bufferSize` elements (0 replays nothing).
    @inlinable public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject replaying every element it received.
    @inlinable public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Int.max)
    }

    /// Whether some observer is subscribed.
    @inlinable public var hasObservers: Bool { isObserved }

    /// Never: a new subscriber first receives the elements kept.
    @inlinable override var attachesAsSubscribed: Bool { false }

    /// Whether the subject received a terminal event.
    @inlinable public var isStopped: Bool { terminal != nil }

    /// The elements a new subscriber would receive first, oldest first.
    @inlinable public var replayedElements: ArraySlice<Element> { buffer[start...] }

    @inlinable public func on(_ event: Event<Element>) {
        send(event) { event in
            guard terminal == nil else { return false }
            switch event {
            case .next(let element): append(element)
            case .error, .completed: terminal = event
            }
            return true
        }
    }

    @inlinable func append(_ element: Element) {
        guard bufferSize > 0 else { return }
        buffer.append(element)
        if buffer.count - start > bufferSize {
            start += 1
            // Compact now and then instead of shifting the array on every element.
            if start >= 32, start * 2 >= buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
        }
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let erased = AnyObserver(observer)
        let replayed = buffer[start...]
        if let terminal {
            for element in replayed { erased.on(.next(element)) }
            erased.on(terminal)
            return NopDisposable()
        }
        let entry = add(erased)
        for element in replayed {
            guard !entry.isDisposed else { break }
            erased.on(.next(element))
        }
        return entry
    }

    @inlinable public func asObservable() -> Observable<Element> {
        SourceObservable(self)
    }
}
