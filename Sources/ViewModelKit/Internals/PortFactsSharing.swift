import CViewModelKit

/// Hands a type's shared ``PortFacts`` to the ports of a `Ports()` the kit makes, so that
/// an instance's ports neither store their facts nor build them (schemas, encoded defaults).
///
/// `Ports()` takes no arguments and its ports are made by the author's property initializers,
/// so the facts travel beside the call: while ``making(with:_:)`` runs `Ports()`, the calling
/// thread's offer (a thread-local pointer, see Sources/CViewModelKit) points at a ``Cursor``
/// over the facts in declaration order, and each port's initializer takes the next one
/// (``claim()``). Per thread, because hosts on other threads make their instances at the same
/// time (tests, several daemons in one process); a plain thread-local rather than a Swift
/// task-local value, whose generic reads and malloc per binding outside a task were paid on
/// every `vm.create` (ViewModelDaemon.docc/Performance.md).
///
/// Only a saving, never what decides a port's facts: ``PortLayout`` attaches every port of
/// the instance to the facts of its declared position, which replaces whatever it claimed
/// (a `Ports` whose `init` makes its ports in another order, a port made for something else
/// while `Ports()` runs). A port made while no `Ports()` is being made, or after the facts
/// ran out, makes its own.
@usableFromInline enum PortFactsSharing {
    /// The facts of one `Ports()` being made, and how many its ports took. Lives on the stack
    /// of ``making(with:_:)``; only code on that thread, during that call, reaches it.
    struct Cursor {
        let facts: [PortFacts]
        var next = 0
    }

    // Every read and write of the offer stays in this file: the thread-local is `static` in
    // CViewModelKit's header, so each object file that touched it would have its own. Hence
    // `@inline(never)` on both functions: a release build (whole-module, but one object file
    // per source file) could otherwise inline them into a port's file, whose own copy of the
    // offer is always empty; the ports would then silently build their own facts.

    /// Runs `make` (which makes a `Ports()`) with `facts` offered to the ports it makes, in
    /// order; what was offered before (a `Ports()` being made around this one) is offered
    /// again after.
    @usableFromInline @inline(never) static func making(with facts: [PortFacts], _ make: () -> Void) {
        var cursor = Cursor(facts: facts)
        withUnsafeMutablePointer(to: &cursor) { pointer in
            let outer = cviewmodelkit_offer()
            cviewmodelkit_set_offer(pointer)
            make()
            cviewmodelkit_set_offer(outer)
        }
    }

    /// The next facts of the `Ports()` being made on this thread, or `nil` when none is (the
    /// port then makes its own).
    @usableFromInline @inline(never) static func claim() -> PortFacts? {
        guard let offer = cviewmodelkit_offer() else { return nil }
        // Only `making(with:_:)` sets the offer: a pointer to its `Cursor`, taken back before
        // the cursor goes out of scope.
        let cursor = offer.assumingMemoryBound(to: Cursor.self)
        let index = cursor.pointee.next
        guard index < cursor.pointee.facts.count else { return nil }
        cursor.pointee.next = index + 1
        return cursor.pointee.facts[index]
    }
}
