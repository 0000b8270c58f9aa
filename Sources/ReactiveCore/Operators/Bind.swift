extension ObservableType {
    /// Forwards every event to `observers`.
    @inlinable public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable where Observer.Element == Element {
        subscribe(AnyObserver(eventHandler: { event in
            for observer in observers { observer.on(event) }
        }))
    }

    /// Forwards elements to `relays`; terminal events are dropped (relays never end).
    @inlinable public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
        subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Forwards elements to `relays`; terminal events are dropped (relays never end).
    @inlinable public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
        subscribe(onNext: { element in
            for relay in relays { relay.accept(element) }
        })
    }

    /// Subscribes a closure receiving every event.
    @inlinable public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
        subscribe(AnyObserver(eventHandler: on))
    }
}
