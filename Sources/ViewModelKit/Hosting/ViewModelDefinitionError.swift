import JSONCore

/// A view-model type that cannot be registered: a mistake in its declaration, found when
/// the registry reflects it (never while serving).
public struct ViewModelDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The type being registered.
    public let type: String
    /// What is wrong, for the author.
    public let problem: String

    public init(type: String, problem: String) {
        self.type = type
        self.problem = problem
    }

    public var description: String { "cannot register view model \(type): \(problem)" }
}
