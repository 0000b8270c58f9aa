/// One step of a sequence: an element, or how the sequence ended.
///
/// Every sequence follows the grammar `next* (error | completed)?`: any number of elements,
/// then at most one terminal event, after which nothing more is delivered.
public enum Event<Element> {
    /// The sequence produced an element.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(any Error)
    /// The sequence ended normally; nothing follows.
    case completed

    /// The element carried by a `.next` event, else `nil`.
    @inlinable
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error carried by an `.error` event, else `nil`.
    @inlinable
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this event ends the sequence (`.error` or `.completed`).
    @inlinable
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The same event with its element transformed; terminal events pass through.
    @inlinable
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: CustomDebugStringConvertible {
    public var debugDescription: String {
        switch self {
        case .next(let element): return "next(\(element))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Elements compare with `==`; errors compare equal when they are the same `Equatable`
    /// value, or (for non-`Equatable` errors) when their debug descriptions match.
    public static func == (lhs: Event, rhs: Event) -> Bool {
        switch (lhs, rhs) {
        case (.next(let left), .next(let right)): return left == right
        case (.error(let left), .error(let right)): return errorsAreEqual(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

/// Compares two errors without Foundation's `NSError` bridging.
func errorsAreEqual(_ left: any Error, _ right: any Error) -> Bool {
    if let equatable = left as? any Equatable {
        return equatable.isEqual(toAny: right)
    }
    return String(reflecting: left) == String(reflecting: right)
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
