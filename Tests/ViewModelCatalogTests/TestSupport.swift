import JSONCore
import ReactiveCore
import ReactiveTesting
import Synchronization
import Testing
import ViewModelKit
import ViewModelTesting

// Helpers shared by the catalog's Kickstarter-style tests.

/// For tests that drive a `ViewModelHost` (a harness has its own `settle()`): lets the async
/// service calls started so far post their results, then runs them on the test's thread at
/// the current virtual time. Waits with a deadline, never sleeps.
func settle(_ scheduler: TestScheduler, calls: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async {
    let arrived = await scheduler.waitForEnqueued(count: calls)
    #expect(arrived, "the service's results never came back", sourceLocation: sourceLocation)
    scheduler.advance()
}

/// The wire form of a value, byte for byte (keys in order): what a client would read.
func wire(_ value: JSONValue) -> String {
    value.encodedString()
}

/// The wire description of `type`, as `vm.types` would send it.
func describe<VM: ViewModel>(_ type: VM.Type) throws -> String {
    wire(try ViewModelRegistry.describe(type).jsonValue)
}

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let count = Mutex(0)

    /// Adds one call and returns the new total.
    @discardableResult
    func increment() -> Int { count.withLock { $0 += 1; return $0 } }

    var value: Int { count.withLock { $0 } }
}
