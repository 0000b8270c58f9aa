import ReactiveCore
import ReactiveTesting

/// The error the tests send.
struct TestError: Error, Equatable {
    var code = 1
}

/// A class whose lifetime the memory tests watch through weak references.
final class Canary {
    var value = 0
}

/// Records a log of strings, for ordering assertions.
final class Log {
    private(set) var entries: [String] = []

    func append(_ entry: String) { entries.append(entry) }
}
