import Dispatch
import Synchronization
import Testing
@testable import ViewModelKit

@Suite("Collecting the ports a Ports() creates, thread by thread")
struct PortCollectorTests {
    @Test("each thread collects exactly the ports its own Ports() created while other threads collect too")
    func threadsCollectTheirOwnPorts() {
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<300 {
                let (ports, collected) = PortCollector.collect(expecting: 4) { Reversed.Ports() }
                // `Reversed.Ports()` creates its ports in the reverse of their declaration order.
                let created: [AnyObject] = [ports.secondSeen, ports.firstSeen, ports.second, ports.first]
                let recorded = collected.ports.map { $0.box as AnyObject }
                let same = recorded.count == created.count && zip(recorded, created).allSatisfy { $0 === $1 }
                if !same { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test("a collection inside another keeps the two lists apart, and the outer one goes on after it")
    func nestedCollectionsStayApart() {
        let (made, outerPorts) = PortCollector.collect {
            let first = Input<Int>("outer, first")
            let (inner, innerPorts) = PortCollector.collect { Input<Int>("inner") }
            let second = Input<Int>("outer, second")
            return (first: first, inner: inner, second: second, innerPorts: innerPorts)
        }
        #expect(outerPorts.ports.map { $0.box as AnyObject }.elementsEqual([made.first, made.second] as [AnyObject], by: ===))
        #expect(made.innerPorts.ports.map { $0.box as AnyObject }.elementsEqual([made.inner] as [AnyObject], by: ===))
    }

    @Test("a port created outside any collection is recorded nowhere")
    func portsOutsideACollectionAreNotRecorded() {
        let alone = Input<Int>("made on its own")
        let (made, collected) = PortCollector.collect { Input<Int>("collected") }
        #expect(collected.count == 1)
        #expect(collected.ports.first?.box === made)
        #expect(collected.ports.first?.box !== alone)
    }
}
