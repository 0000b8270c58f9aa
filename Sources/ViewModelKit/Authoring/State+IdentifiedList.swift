import JSONCore
import ReactiveCore

extension State {
    /// Changes the list this state holds in place and publishes the result once: typed
    /// observers get the new list, and patch subscribers get only the RFC 6902 operations
    /// that make the change (`add`/`remove`/`move` at `/index`, `replace` at `/index` or
    /// `/index/member`), computed from the edits, never by serializing or comparing the
    /// whole list. Whole-value subscribers and `vm.get` get the list encoded when they need
    /// it, once per change at most.
    ///
    /// ```swift
    /// ports.items.update { items in
    ///     items.update(id: id) { $0.done.toggle() }
    /// }
    /// ```
    ///
    /// Nothing is published when `change` changes nothing. Inside `change`, read the list it
    /// is given, not ``value`` (the state's value is the list being changed). A change made
    /// while an observer of this state is being called (re-entrant) is published as a whole
    /// value, after the current one.
    ///
    /// Cost: keep no copy of the list beyond the state (a typed observer holding the
    /// previous list makes the next change copy it), and prefer one `update` with several
    /// edits to several updates (one notification).
    public func update<Element>(_ change: (inout IdentifiedList<Element>) -> Void) where Value == IdentifiedList<Element> {
        let held = fanOut?.fanOut
        if let held, held.isEmitting {
            var list = latestEmitted
            change(&list)
            emit(list)
            return
        }
        // Taken out of the state, so the list's storage is changed in place (unique).
        var list = IdentifiedList<Element>()
        swap(&list, &storedValue)
        list.beginRecording()
        change(&list)
        let edits = list.endRecording()
        guard !edits.isEmpty else {
            swap(&list, &storedValue)
            return
        }
        if let held, held.hasJSONWatchers {
            // Each element takes at least one byte and one separator: `[]` or `[e,…,e]`.
            held.pendingPatch = Self.patch(for: edits, count: list.count, encode: encode).map { ($0, max(2, 2 * list.count + 1)) }
        }
        emit(list)
    }

    /// Subscribes `source` for the instance's lifetime; each of its elements changes the list
    /// through ``update(_:)`` (so a change is published once, as a patch where it can be).
    /// Errors and completion end the binding and keep the list.
    ///
    /// ```swift
    /// ports.items.bind(ports.toggle) { items, id in
    ///     items.update(id: id) { $0.done.toggle() }
    /// }
    /// ```
    public func bind<Change, Element>(
        _ source: some ObservableConvertibleType<Change>, update change: @escaping (inout IdentifiedList<Element>, Change) -> Void
    ) where Value == IdentifiedList<Element> {
        keep(source.asObservable().subscribe(AnyObserver { event in
            if case .next(let element) = event { self.update { change(&$0, element) } }
        }))
    }

    /// The patch that turns the previous list into the new one (`count` elements), or `nil`
    /// when the edits cannot say it (a ``IdentifiedList/replaceAll(with:)``) or say it at
    /// greater length than the value (more operations than elements).
    ///
    /// An element is encoded with the state's own encoding of a one-element list, so the
    /// list's codec (`JSONConvertible` or `Codable`) is the only one, and nothing is stored
    /// per state for it.
    static func patch<Element>(
        for edits: [ListEdit<Element>], count: Int, encode: (IdentifiedList<Element>) -> JSONValue
    ) -> JSONPatch? {
        guard edits.count <= Swift.max(count, 4) else { return nil }
        func encoded(_ element: Element) -> JSONValue? {
            guard case .array(let one) = encode(IdentifiedList(encodingOnly: element)), one.count == 1 else { return nil }
            return one[0]
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(edits.count)
        for edit in edits {
            switch edit {
            case .insert(let index, let element):
                guard let value = encoded(element) else { return nil }
                operations.append(.add(path: JSONPointer(tokens: [String(index)]), value: value))
            case .update(let index, let old, let new):
                guard let before = encoded(old), let after = encoded(new) else { return nil }
                let path = JSONPointer(tokens: [String(index)])
                // One member changed: `replace /index/member`; otherwise the element whole.
                if let members = JSONPatch(from: before, to: after, maximumOperations: 2),
                    members.operations.allSatisfy({ if case .replace = $0 { true } else { false } })
                {
                    for case .replace(let member, let value) in members.operations {
                        operations.append(.replace(path: JSONPointer(tokens: path.tokens + member.tokens), value: value))
                    }
                } else {
                    operations.append(.replace(path: path, value: after))
                }
            case .remove(let index):
                operations.append(.remove(path: JSONPointer(tokens: [String(index)])))
            case .move(let from, let to):
                operations.append(.move(from: JSONPointer(tokens: [String(from)]), path: JSONPointer(tokens: [String(to)])))
            case .reset:
                return nil
            }
        }
        return JSONPatch(operations)
    }
}
