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
    /// Called instead of ``handler`` with a state's change as an RFC 6902 patch from its
    /// previous value and a lower bound of the new value's encoded length, when the state
    /// knows them (State+IdentifiedList.swift); `nil` for a watcher of whole values only.
    /// Only called while ``handler`` is set.
    @usableFromInline let patchHandler: ((JSONPatch, Int) -> Void)?
    /// Takes a value as a function appending its JSON text and a function making its tree
    /// (for a caller that needs the tree after all); see ``textHandler``.
    @usableFromInline typealias TextHandler = (_ writeText: (inout [UInt8]) -> Void, _ tree: () -> JSONValue) -> Void
    /// Called instead of ``handler`` when the output's type writes its own text and this
    /// watcher is the output's only one: the value is written straight to the watcher's bytes
    /// and its tree made only if the watcher asks. Only called while ``handler`` is set.
    @usableFromInline let textHandler: TextHandler?
    private let onDispose: (JSONWatcher) -> Void

    init(
        handler: @escaping (JSONValue) -> Void, patchHandler: ((JSONPatch, Int) -> Void)?, textHandler: TextHandler? = nil,
        onDispose: @escaping (JSONWatcher) -> Void
    ) {
        self.handler = handler
        self.patchHandler = patchHandler
        self.textHandler = textHandler
        self.onDispose = onDispose
    }

    @usableFromInline var isDisposed: Bool { handler == nil }

    @usableFromInline func dispose() {
        guard handler != nil else { return }
        handler = nil
        onDispose(self)
    }
}
