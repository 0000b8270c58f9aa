import JSONCore
import ReactiveCore

/// One JSON observer of an output (``ViewModelInstance/observe(output:_:)``): a handler in
/// ``OutputFanOut``'s list, called with each value; disposing it removes it.
///
/// A plain list entry rather than a reactive subject: the host watches an output through one
/// such handler (the server's `OutputChannel`, which fans the encoded bytes out to every
/// subscription), so a value goes from the view model's chain to that handler in one call.
@usableFromInline final class JSONWatcher: Cancelable {
    /// `nil` once disposed (or the output closed): nothing is delivered after.
    /// (Unchecked exclusivity: read once per value by ``OutputFanOut``, which copies the
    /// closure out before calling it, and written only by single assignments to `nil` in
    /// ``dispose()`` and `OutputFanOut.closeJSON()`; no access spans a call. The dynamic check
    /// ran on every `vm.send` → `vm.output`: ViewModelDaemon.docc/Performance.md.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var handler: ((JSONValue) -> Void)?
    private let onDispose: (JSONWatcher) -> Void

    init(handler: @escaping (JSONValue) -> Void, onDispose: @escaping (JSONWatcher) -> Void) {
        self.handler = handler
        self.onDispose = onDispose
    }

    @usableFromInline var isDisposed: Bool { handler == nil }

    @usableFromInline func dispose() {
        guard handler != nil else { return }
        handler = nil
        onDispose(self)
    }
}
