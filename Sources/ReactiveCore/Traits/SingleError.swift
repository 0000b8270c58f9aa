/// How ``ObservableType/asSingle()`` fails when its source does not emit exactly one element.
public enum SingleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source completed without an element.
    case noElements
    /// The source emitted a second element.
    case moreThanOneElement

    public var description: String {
        switch self {
        case .noElements: return "the sequence completed without an element"
        case .moreThanOneElement: return "the sequence emitted more than one element"
        }
    }
}
