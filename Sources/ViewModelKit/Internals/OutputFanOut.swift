import JSONCore
import ReactiveCore

/// Delivers one output's values to any number of observers, typed and JSON, in one order.
///
/// The output path, from a view model's value to the bytes on each subscriber's socket: this
/// type's ``emit(_:encode:writeText:)`` encodes the value to JSON once for its JSON watchers (in a daemon, one
/// per watched output: VMServer's `OutputChannel`); the channel serializes it to bytes once and
/// is the one fan-out, to every `Subscription` of that output (sharing one patch among patch
/// subscriptions); each subscription takes the next seq, or coalesces the value while the
/// transport says its connection is full (`vm.overflow` follows the drain); and `Outbox` has
/// `VMOutputNotification`, the one encoder of `vm.output`, write the notification straight into
/// the connection's outbound queue of pooled chunks, which VMTransport sends once per loop turn.
///
/// The view model's chain is subscribed once (by the port's `bind`); every value goes
/// through ``emit(_:encode:writeText:)``, which encodes it at most once and only when someone watches the
/// JSON side. Re-entrant emissions (an observer causing a new value of the same output) are
/// queued and delivered after the current one has reached everybody, so every observer,
/// typed or JSON, sees the same order, and a state's current value is always the last value
/// delivered.
///
/// A state makes its fan-out at its first observer (until then a value only becomes its
/// current value: most states of idle instances are never watched). The typed subject is
/// created by its first observer, and the JSON side is a plain list of
/// ``JSONWatcher``s (empty until someone watches): a hosted instance is watched in JSON only,
/// by one handler per output (the server's `OutputChannel`, the one fan-out to subscribers),
/// and many outputs are never watched (workload W4 of Sources/vmd-bench/DaemonBenchmarks.swift).
///
/// Exclusivity: `queue`, `isEmitting`, `typed` and `json` are `@exclusivity(unchecked)`: every
/// access is a single read, assignment or array call that runs no user code (`json`'s
/// `removeAll` only compares identities), so no access spans an observer call (a re-entrant
/// `emit` only appends; `deliverJSON` and `emit` call handlers and the subject through copies
/// read out first).
///
/// Inlinable: `emit` runs for every value of every output, and the ports' `bind`/`accept`
/// that call it are inlined into the app's module; exposing it lets that module specialize
/// it for the concrete `Value` instead of going through generic metadata per value.
@usableFromInline final class OutputFanOut<Value> {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var typed: PublishSubject<Value>?
    /// The JSON observers, in subscription order.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var json: [JSONWatcher] = []
    /// Set by ``closeJSON()`` when no JSON subject existed: later JSON observers get nothing.
    @usableFromInline var isJSONClosed = false
    /// Declared next to ``isJSONClosed``: the two flags share one word (one malloc size class
    /// down per fan-out).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var isEmitting = false
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var queue: [Value] = []
    /// The state output this fans out, if it is one: each value becomes its current value
    /// before any observer sees it, and the JSON encoded for watchers its cached encoding.
    /// Unowned, without reference counting (`unowned(unsafe)`): the state owns this fan-out
    /// (its `fanOut`), and the only callers of ``emit(_:encode:writeText:)`` and ``deliver(_:encode:writeText:)`` that pass a
    /// state are the state's own `accept` and its `bind` closure, which holds the state
    /// (see State.swift); so the state is alive whenever this is read. The checked `unowned`
    /// paid a strong retain and release of the state per value. Set once, by the state's
    /// `init` right after making this fan-out (unchecked exclusivity: that one assignment
    /// and single-expression reads; no access spans a call).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline unowned(unsafe) var state: State<Value>?
    /// A state's current value encoded, once encoded (for its JSON watchers or a read), until
    /// the next value; always `nil` for an event output. (Unchecked exclusivity: written by
    /// single assignments in ``deliver(_:encode:writeText:)`` and the state's `currentJSON`, read in
    /// single expressions; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var cachedJSON: JSONValue?
    /// The RFC 6902 patch from the state's current value to the value being emitted, when its
    /// edits say it (State+IdentifiedList.swift), with a lower bound of the value's encoded
    /// length: set just before that emission, taken by its delivery. (Unchecked exclusivity:
    /// single assignments and reads; no access spans a call.)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    @usableFromInline var pendingPatch: (patch: JSONPatch, valueBytesAtLeast: Int)?

    /// A fan-out with no observers. The encoding is not kept here: the output passes its own
    /// with each value (smaller watched outputs).
    @inlinable init() {
        self.state = nil
        self.cachedJSON = nil
        self.pendingPatch = nil
    }

    /// Whether anyone watches the JSON side (only then is a patch worth computing).
    var hasJSONWatchers: Bool { !json.isEmpty }

    /// `writeText`, when given, appends a value's JSON text without a tree (the state's codec
    /// has one when its type writes itself): a lone watcher that takes text gets it.
    @inlinable func emit(_ value: Value, encode: (Value) -> JSONValue, writeText: ((Value, inout [UInt8]) -> Void)? = nil) {
        guard !isEmitting else {
            queue.append(value)
            return
        }
        isEmitting = true
        // The value itself goes out without passing through `queue`; values emitted while it
        // is delivered queue up and follow, in order.
        deliver(value, encode: encode, writeText: writeText)
        if !queue.isEmpty {
            var index = 0
            while index < queue.count {
                let next = queue[index]
                index += 1
                deliver(next, encode: encode, writeText: writeText)
            }
            queue.removeAll(keepingCapacity: true)
        }
        isEmitting = false
    }

    /// One value to everybody: the state's bookkeeping, the JSON watchers, the typed subject.
    /// The state's value and cached encoding are written once each, before any observer
    /// runs (the encoding first, when someone watches the JSON side).
    @inlinable func deliver(_ value: Value, encode: (Value) -> JSONValue, writeText: ((Value, inout [UInt8]) -> Void)?) {
        if json.isEmpty {
            if let state {
                state.storedValue = value
                cachedJSON = nil
            }
        } else if pendingPatch != nil {
            // Out of line: this inlined path stays as small as before lists had patches
            // (the `send` workload of .ci/instructions).
            deliverPendingPatch(value)
        } else if let writeText, json.count == 1, let text = json[0].textHandler {
            // One watcher that takes text (the server's channel): the value's bytes are
            // written without a tree; the tree is made (and cached) only if it asks for it.
            if let state {
                state.storedValue = value
                cachedJSON = nil
            }
            if json[0].handler != nil {
                text({ buffer in writeText(value, &buffer) }, { self.encodedForWatcher(value, encode: encode) })
            }
        } else {
            let encoded = encode(value)
            if let state {
                state.storedValue = value
                cachedJSON = encoded
            }
            deliverJSON(encoded)
        }
        typed?.onNext(value)
    }

    /// `value`'s tree, asked for by a text watcher that needs it after all: cached as the
    /// state's encoding when `value` is the state's value.
    @inlinable func encodedForWatcher(_ value: Value, encode: (Value) -> JSONValue) -> JSONValue {
        let encoded = encode(value)
        if state != nil { cachedJSON = encoded }
        return encoded
    }

    @inlinable func subscribeTyped(_ observer: AnyObserver<Value>) -> any Disposable {
        let subject = typed ?? PublishSubject<Value>()
        typed = subject
        return subject.subscribe(observer)
    }

    /// Calls every JSON watcher with `value`. Through a copy of the list: a handler may add
    /// or dispose watchers; a watcher disposed mid-way gets nothing more.
    @usableFromInline func deliverJSON(_ value: JSONValue) {
        if json.count == 1 {
            let only = json[0]
            only.handler?(value)
            return
        }
        for watcher in json { watcher.handler?(value) }
    }

    /// Delivers `value`, the state's new value, with ``pendingPatch`` (taken).
    @usableFromInline func deliverPendingPatch(_ value: Value) {
        guard let pending = pendingPatch, let state else { return }
        pendingPatch = nil
        state.storedValue = value
        cachedJSON = nil
        deliverPatch(pending.patch, valueBytesAtLeast: pending.valueBytesAtLeast, of: state)
    }

    /// Calls every JSON watcher with the state's new value as `patch`: a watcher that takes
    /// patches gets it; any other the whole value, encoded once for all of them (and cached
    /// as the state's encoding).
    @usableFromInline func deliverPatch(_ patch: JSONPatch, valueBytesAtLeast: Int, of state: State<Value>) {
        for watcher in json {
            guard let handler = watcher.handler else { continue }
            if let patchHandler = watcher.patchHandler {
                patchHandler(patch, valueBytesAtLeast)
            } else {
                handler(state.currentJSON ?? .null)
            }
        }
    }

    func observeJSON(
        _ handler: @escaping (JSONValue) -> Void, patches: ((JSONPatch, Int) -> Void)? = nil, text: JSONWatcher.TextHandler? = nil
    ) -> any Disposable {
        if isJSONClosed { return Disposables.create() }
        let watcher = JSONWatcher(handler: handler, patchHandler: patches, textHandler: text) { [weak self] watcher in
            self?.json.removeAll { $0 === watcher }
        }
        json.append(watcher)
        return watcher
    }

    /// Ends the JSON side: observers are told nothing more and released.
    func closeJSON() {
        isJSONClosed = true
        let watchers = json
        json = []
        for watcher in watchers { watcher.handler = nil }
    }
}
