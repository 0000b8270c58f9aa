/// A terminal event without an element type.
@usableFromInline enum StopEvent {
    case error(any Error)
    case completed

    /// The same end as an event of a sequence of `Element`s.
    @inlinable func event<Element>(_ type: Element.Type = Element.self) -> Event<Element> {
        switch self {
        case .error(let error): .error(error)
        case .completed: .completed
        }
    }
}
