import ReactiveCore
import Testing
@testable import ViewModelKit

/// A `Ports` with one property typed as an existential: not one reference per port.
struct ExistentialPorts: ViewModel {
    static let summary = "One input seen through an existential."

    struct Ports: ViewModelPorts {
        let plain = Input<Int>("A plain input.")
        let hidden: any ObservableType = Input<Int>("An input typed as an existential.")
    }

    init(ports: Ports, context: Context) {}
}

/// A `Ports` whose first port is the same object in every instance.
struct SharedPorts: ViewModel {
    static let summary = "A port every instance shares."
    // Unsafe only in name: the tests read it on their own threads and never mutate it.
    nonisolated(unsafe) static let common = Input<Int>("Shared by every instance.")

    struct Ports: ViewModelPorts {
        let common = SharedPorts.common
        let own = State<Int>("This instance's own.", initial: 0)
    }

    init(ports: Ports, context: Context) {}
}

@Suite("Reading an instance's ports from its Ports value")
struct PortLayoutTests {
    private func identities(_ list: PortList) -> [ObjectIdentifier] {
        list.ports.map { ObjectIdentifier($0.box) }
    }

    @Test("plain port properties are read in declaration order, whatever order init creates them in")
    func readsPlainPortsInDeclarationOrder() throws {
        let layout = try PortLayout.learn(Reversed.self).layout
        #expect(layout.slots?.count == 4)
        for _ in 0..<3 {
            let (ports, boxes) = layout.makePorts(of: Reversed.self, attachingTo: DisposeBag())
            let declared: [AnyObject] = [ports.first, ports.second, ports.firstSeen, ports.secondSeen]
            #expect(identities(boxes) == declared.map(ObjectIdentifier.init))
        }
    }

    @Test("a port behind an existential makes the type reflected instead, with the same ports")
    func existentialPropertiesAreReflected() throws {
        let layout = try PortLayout.learn(ExistentialPorts.self).layout
        #expect(layout.slots == nil)
        let (ports, boxes) = layout.makePorts(of: ExistentialPorts.self, attachingTo: DisposeBag())
        let hidden = try #require(ports.hidden as? Input<Int>)
        #expect(identities(boxes) == [ObjectIdentifier(ports.plain), ObjectIdentifier(hidden)])
    }

    @Test("a port shared by every instance is read as that port in each of them")
    func sharedPortsAreRead() throws {
        let layout = try PortLayout.learn(SharedPorts.self).layout
        #expect(layout.slots?.count == 2)
        let first = layout.makePorts(of: SharedPorts.self, attachingTo: DisposeBag())
        let second = layout.makePorts(of: SharedPorts.self, attachingTo: DisposeBag())
        #expect(identities(first.boxes) == [ObjectIdentifier(SharedPorts.common), ObjectIdentifier(first.ports.own)])
        #expect(identities(second.boxes) == [ObjectIdentifier(SharedPorts.common), ObjectIdentifier(second.ports.own)])
    }
}
