import JSONCore
import ReactiveCore

// Input's declaration (its stored properties, designated initializer and type documentation)
// is in Internals/PortStorage/Input+Storage.swift, beside the storage idioms it needs; this
// file, which authors read, keeps its API and none of them.
extension Input {
    /// What the input means, for people reading `vm.types`.
    public var summary: String { facts.summary }

    /// The wire name (the property's name), once the kit has attached the port.
    public var wireName: String { facts.name }

    /// Pushes `value` as if a client had sent it (tests and the kit's host use this).
    @inlinable public func send(_ value: Value) {
        heldFacts.deliver(value, to: self)
    }

    @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Value {
        subscribeObserver(observer)
    }

    // MARK: PortBox

    var typed: TypedPort { .input(self) }

    /// Its facts (see ``heldFacts``).
    var facts: PortFacts { heldFacts.facts }

    func attach(facts shared: [PortFacts], at position: Int, bag: DisposeBag) -> TypedPort {
        // Compared in one expression, before anything is retained: the facts it claimed when
        // made are, in an instance the kit makes, these ones.
        if ObjectIdentifier(heldFacts.facts) == ObjectIdentifier(shared[position]) { return typed }
        let current = self.facts
        let facts = shared[position]
        // Facts of another class (a declaration whose instances hold differently typed
        // inputs behind an existential) would break `send`: such an input keeps its own
        // facts, under the declared name.
        let taken = ObjectIdentifier(type(of: facts)) == ObjectIdentifier(type(of: current)) ? facts : current.named(facts.name)
        let replaced = heldFacts
        heldFacts = HeldInputFacts(retaining: taken)
        replaced.release()
        return typed
    }

    func push(json: JSONValue) throws(JSONDecodingError) {
        send(try decode(json))
    }

    var readsBytes: Bool { read != nil }

    func push(reading bytes: UnsafeBufferPointer<UInt8>, depth: Int, maxDepth: Int) throws(JSONDecodingError) -> Bool {
        guard let read else { return false }
        send(try JSONByteReader.readWhole(bytes, depth: depth, maxDepth: maxDepth, with: read))
        return true
    }
}

extension Input where Value: JSONConvertible {
    /// An input of a `JSONConvertible` type; an omitted value on the wire means
    /// `defaultValue` when given (published as the schema's `default`). `secret`: see
    /// ``init(_:codec:default:secret:)``.
    @inlinable public convenience init(_ summary: String = "", default defaultValue: Value? = nil, secret: Bool = false) {
        self.init(summary, codec: .json, default: defaultValue, secret: secret)
    }
}

extension Input where Value: JSONReadable {
    /// An input of a `JSONReadable` type: as for a `JSONConvertible` one, and values sent to
    /// it are read from their bytes by the type's reader (`JSONReadable`).
    @inlinable public convenience init(_ summary: String = "", default defaultValue: Value? = nil, secret: Bool = false) {
        self.init(summary, codec: .json, default: defaultValue, secret: secret)
    }
}

extension Input where Value == Void {
    /// An input that carries nothing (a tap): `{"type": "null"}` on the wire.
    @inlinable public convenience init(_ summary: String = "") {
        self.init(summary, codec: .void)
    }
}
