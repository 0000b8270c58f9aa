#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands a type's shared ``PortFacts`` to the ports of a `Ports()` the kit makes, so that
/// an instance's ports neither store their facts nor build them (schemas, encoded defaults).
///
/// `Ports()` takes no arguments and its ports are made by the author's property initializers,
/// so the facts travel beside the call: while ``making(with:_:)`` runs `Ports()`, the
/// calling thread's ``Cursor`` offers the facts in declaration order, and each port's
/// initializer takes the next one (``claim()``). Per thread, because hosts on other threads
/// make their instances at the same time (tests, several daemons in one process).
///
/// Only a saving, never what decides a port's facts: ``PortLayout`` attaches every port of
/// the instance to the facts of its declared position, which replaces whatever it claimed
/// (a `Ports` whose `init` makes its ports in another order, a port made for something else
/// while `Ports()` runs). A port made while no `Ports()` is being made, or after the facts
/// ran out, makes its own.
@usableFromInline enum PortFactsSharing {
    /// One thread's offer: the facts of the `Ports()` being made there (empty when none is),
    /// and how many its ports took. Made once per thread, on its first instance, and kept
    /// until the thread ends (the slot's destructor releases it).
    ///
    /// Unchecked exclusivity: only its own thread reaches it (through its thread's slot),
    /// and every access is a single read or assignment that calls nothing.
    @usableFromInline final class Cursor {
        @exclusivity(unchecked) @usableFromInline var facts: [PortFacts] = []
        @exclusivity(unchecked) @usableFromInline var next = 0
    }

    /// The threads' slot holding their ``Cursor`` (retained, released when the thread ends).
    /// `nil` when the process ran out of keys (PTHREAD_KEYS_MAX): ports then make their own
    /// facts, as outside an instance.
    private static let slot: pthread_key_t? = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { value in
            // Optional on some platforms, not on others.
            let cursor: UnsafeMutableRawPointer? = value
            guard let cursor else { return }
            Unmanaged<Cursor>.fromOpaque(cursor).release()
        }
        return made == 0 ? key : nil
    }()

    /// Runs `make` (a `Ports()`) with `facts` offered to the ports it makes, in order; what
    /// was offered before (a `Ports()` being made around this one) is offered again after.
    @inlinable static func making<Ports>(with facts: [PortFacts], _ make: () -> Ports) -> Ports {
        guard let cursor = threadCursor() else { return make() }
        let outerFacts = cursor.facts
        let outerNext = cursor.next
        cursor.facts = facts
        cursor.next = 0
        let ports = make()
        cursor.facts = outerFacts
        cursor.next = outerNext
        return ports
    }

    /// This thread's cursor, made on first use; `nil` without a slot.
    @usableFromInline static func threadCursor() -> Cursor? {
        guard let key = slot else { return nil }
        if let raw = pthread_getspecific(key) {
            // Only this function stores into the slot: a retained `Cursor`.
            return Unmanaged<Cursor>.fromOpaque(raw).takeUnretainedValue()
        }
        let cursor = Cursor()
        guard pthread_setspecific(key, Unmanaged.passRetained(cursor).toOpaque()) == 0 else {
            Unmanaged.passUnretained(cursor).release()
            return nil
        }
        return cursor
    }

    /// The next facts of the `Ports()` being made on this thread, or `nil` when none is (the
    /// port then makes its own).
    @usableFromInline static func claim() -> PortFacts? {
        guard let key = slot, let raw = pthread_getspecific(key) else { return nil }
        // Only `threadCursor()` stores into the slot: a retained `Cursor`.
        let cursor = Unmanaged<Cursor>.fromOpaque(raw).takeUnretainedValue()
        let index = cursor.next
        guard index < cursor.facts.count else { return nil }
        cursor.next = index + 1
        return cursor.facts[index]
    }
}
