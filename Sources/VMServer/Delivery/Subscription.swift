import JSONCore
import VMProtocol
import ViewModelKit

/// One subscription: which outputs of one instance it watches, its seq, and what it lost
/// while its connection's buffer was full (the transport says when: ``ConnectionSink/isFull``;
/// the coalescing and `vm.overflow` are this type's alone).
///
/// A subscription watches a list of *slots*, one per watched output in `vm.types` order; each
/// slot keeps its precomputed notification prefix, so a delivery is a few copies straight into
/// the transport's buffer.
final class Subscription {
    /// One watched output.
    struct Slot {
        let output: String
        let outputIndex: Int
        let kind: OutputKind
        /// `vm.output`'s bytes up to and including `"seq":`.
        let prefix: [UInt8]
    }

    let id: String
    let session: Session
    let record: InstanceRecord
    let slots: [Slot]
    let outbox: Outbox
    /// Whether state values may go out as RFC 6902 patches (`patches: true`).
    let patches: Bool
    /// Patch subscriptions only (empty otherwise, so value subscriptions pay nothing): per
    /// slot, the generation of its channel whose value this subscription last received, 0 when
    /// unknown. A patch applies only on top of exactly that value (see `OutputChannel`).
    private(set) var received: [UInt64] = []
    /// Patch subscriptions only: per slot, the generation of the coalesced value.
    private var coalescedGeneration: [UInt64] = []
    // Unchecked exclusivity on the per-delivery counters: each is read and written in one
    // statement, never across a call that could re-enter (the dynamic checks were a sizeable
    // part of a fan-out delivery: ViewModelDaemon.docc/Performance.md).
    /// The last seq consumed (written or lost).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var seq: Int64 = 0
    /// First and last lost seq while losing values; `lostFrom == 0` when nothing is lost.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var lostFrom: Int64 = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private var lostTo: Int64 = 0
    /// Per slot: the newest value of a state output that was not written (coalescing).
    private var coalesced: [[UInt8]?]
    /// `false` once unsubscribed, closed or its connection gone: nothing is delivered after.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    private(set) var isOpen = true

    init(
        id: String, session: Session, record: InstanceRecord, outputs: [(name: String, index: Int, kind: OutputKind)], outbox: Outbox,
        patches: Bool = false
    ) {
        self.id = id
        self.patches = patches
        self.session = session
        self.record = record
        self.outbox = outbox
        self.slots = outputs.map { output in
            Slot(
                output: output.name, outputIndex: output.index, kind: output.kind,
                prefix: VMOutputNotification.prefix(subscription: id, instance: record.id, output: output.name))
        }
        self.coalesced = Array(repeating: nil, count: outputs.count)
        if patches {
            received = Array(repeating: 0, count: outputs.count)
            coalescedGeneration = Array(repeating: 0, count: outputs.count)
        }
    }

    /// Whether slot `slot` holds the channel's value of `generation`, so a patch from it applies.
    @inline(__always)
    func holds(slot: Int, generation: UInt64) -> Bool {
        patches && isOpen && generation != 0 && received[slot] == generation
    }

    /// Delivers one value of slot `slot` (already encoded): written at once with the next seq,
    /// or, while the connection is full (or an earlier loss is not reported yet), counted as
    /// lost; a state output keeps its newest value for the drain.
    /// `generation` is the channel's number for this value (patch subscriptions remember it).
    @inline(__always)
    func deliver(slot: Int, encodedValue: [UInt8], replay: Bool = false, generation: UInt64 = 0) {
        guard isOpen else { return }
        seq += 1
        // Read once: both the fullness check and the write go to this sink.
        let sink = session.sink
        if lostFrom != 0 || sink.isFull {
            lose(slot: slot, encodedValue: encodedValue, generation: generation)
            return
        }
        outbox.sendOutput(to: session, via: sink, prefix: slots[slot].prefix, seq: seq, encoded: encodedValue, replay: replay)
        if patches { received[slot] = generation }
    }

    /// ``deliver(slot:encodedValue:replay:generation:)`` for a value that is the integer
    /// `integerValue`, not encoded beforehand: written straight into the transport's buffer,
    /// or encoded only when it is lost (and coalesced). Generation 0: the channel has no
    /// patch taps when it calls this.
    @inline(__always)
    func deliver(slot: Int, integerValue: Int64) {
        guard isOpen else { return }
        seq += 1
        // Read once: both the fullness check and the write go to this sink.
        let sink = session.sink
        if lostFrom != 0 || sink.isFull {
            var encodedValue: [UInt8] = []
            JSONSerializer.appendInteger(integerValue, to: &encodedValue)
            lose(slot: slot, encodedValue: encodedValue, generation: 0)
            return
        }
        outbox.sendOutput(to: session, via: sink, prefix: slots[slot].prefix, seq: seq, integer: integerValue)
        if patches { received[slot] = 0 }
    }

    /// Delivers one new state value as `patch` (encoded), which turns the value this slot
    /// holds into the value of `generation` (`encodedValue`, asked for only when the patch is
    /// lost: a lost value is coalesced and later written whole, as for any subscription).
    func deliver(slot: Int, encodedPatch: [UInt8], generation: UInt64, encodedValue: () -> [UInt8]) {
        guard isOpen else { return }
        seq += 1
        if lostFrom != 0 || outbox.isFull(session) {
            lose(slot: slot, encodedValue: encodedValue(), generation: generation)
            return
        }
        outbox.sendOutput(to: session, prefix: slots[slot].prefix, seq: seq, encoded: encodedPatch, isPatch: true)
        received[slot] = generation
    }

    private func lose(slot: Int, encodedValue: [UInt8], generation: UInt64) {
        if patches {
            received[slot] = 0
            coalescedGeneration[slot] = generation
        }
        if lostFrom == 0 {
            lostFrom = seq
            session.lossOrder.append(self)
        }
        lostTo = seq
        if slots[slot].kind == .state { coalesced[slot] = encodedValue }
    }

    /// The connection drained: `vm.overflow` for the lost range, then the newest value of
    /// each coalesced state output with fresh seqs (PROTOCOL.md §7).
    func reportOverflow() {
        guard isOpen, lostFrom != 0 else { return }
        let from = lostFrom, to = lostTo
        lostFrom = 0
        lostTo = 0
        outbox.log(.overflow(connection: session.id, subscription: id, lost: from...to))
        outbox.send(to: session) { buffer in
            VMOverflowNotification.append(subscription: id, instance: record.id, from: from, to: to, to: &buffer)
        }
        for slot in slots.indices {
            guard let value = coalesced[slot] else { continue }
            coalesced[slot] = nil
            seq += 1
            outbox.sendOutput(to: session, prefix: slots[slot].prefix, seq: seq, encoded: value)
            if patches { received[slot] = coalescedGeneration[slot] }
        }
    }

    /// The last seq its connection was handed: values after it were never written there
    /// (lost while full, or not produced yet). What a lost connection may have taken with it
    /// ends here (Server+Sessions.swift).
    var lastHandedSeq: Int64 { lostFrom != 0 ? lostFrom - 1 : seq }

    /// Reports `from...to` lost with `vm.overflow` (seqs a lost connection took with it, PROTOCOL.md
    /// §18); they were consumed long ago, so nothing else changes.
    func reportLost(_ lost: ClosedRange<Int64>) {
        guard isOpen else { return }
        outbox.log(.overflow(connection: session.id, subscription: id, lost: lost))
        outbox.send(to: session) { buffer in
            VMOverflowNotification.append(subscription: id, instance: record.id, from: lost.lowerBound, to: lost.upperBound, to: &buffer)
        }
    }

    /// Patch subscriptions: the values handed so far may never reach the client (its
    /// connection is lost), so no patch may build on them: the next value of every output
    /// goes whole. A value being coalesced goes whole anyway.
    func forgetReceived() {
        for slot in received.indices { received[slot] = 0 }
    }

    /// Ends the subscription; nothing more is written for it.
    func close() {
        isOpen = false
        coalesced = []
        received = []
    }
}
