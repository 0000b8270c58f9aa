/// The three names a `vm.output` carries, in one immutable object: every ``VMOutputEvent`` of
/// one subscription's output read from the same connection shares one (OutputNameCache.swift).
final class OutputNames: Sendable, Hashable {
    let subscription: String
    let instance: String
    let output: String

    init(subscription: String, instance: String, output: String) {
        self.subscription = subscription
        self.instance = instance
        self.output = output
    }

    static func == (lhs: OutputNames, rhs: OutputNames) -> Bool {
        lhs === rhs || (lhs.subscription == rhs.subscription && lhs.instance == rhs.instance && lhs.output == rhs.output)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(subscription)
        hasher.combine(instance)
        hasher.combine(output)
    }
}
