import JSONCore
import Synchronization
import Testing
@testable import VMClient

/// The channel between VMClient's loop thread and a subscription's iterating task
/// (SubscriptionChannel.swift): batches in order, one wake per batch, the end after the
/// buffered events, and giving up by cancelling or dropping the sequence.
@Suite("SubscriptionChannel")
struct SubscriptionChannelTests {
    private static func event(_ seq: Int64) throws -> VMSubscriptionEvent {
        var output = try VMOutputEvent.sample
        output.seq = seq
        return .output(output)
    }

    private static func seqs(_ events: [VMSubscriptionEvent]) -> [Int64] {
        events.map { if case .output(let output) = $0 { output.seq } else { -1 } }
    }

    @Test("a batch appended without waking reaches the waiting consumer whole, in order, after one wake")
    func batchAfterOneWake() async throws {
        let channel = SubscriptionChannel()
        let subscription = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel))
        let consumer = Task {
            var seen: [VMSubscriptionEvent] = []
            for try await event in subscription {
                seen.append(event)
                if seen.count == 3 { break }
            }
            return seen
        }
        // Only an append that finds the consumer waiting owes a wake.
        for _ in 0..<5_000 where !channel.consumerIsWaiting { try await Task.sleep(for: .milliseconds(1)) }
        #expect(channel.consumerIsWaiting)
        #expect(try channel.append(Self.event(1)), "the first append finding the consumer waiting owes the wake")
        #expect(try channel.append(Self.event(2)) == false, "a second append in the batch owes no second wake")
        #expect(try channel.append(Self.event(3)) == false)
        #expect(channel.consumerIsWaiting, "appending alone wakes nobody")
        channel.wake()
        let seen = Self.seqs(try await consumer.value)
        #expect(seen == [1, 2, 3])
    }

    @Test("a read's values appended at once follow those buffered before, in order, and owe one wake")
    func readAppendedAtOnce() async throws {
        let channel = SubscriptionChannel()
        var iterator = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel)).makeAsyncIterator()
        var read = try [Self.event(1), Self.event(2)]
        #expect(channel.append(contentsOf: &read) == false, "nobody waits: no wake owed")
        #expect(read.isEmpty, "the values are taken")
        read = try [Self.event(3), Self.event(4)]
        #expect(channel.append(contentsOf: &read) == false)
        #expect(read.isEmpty)
        var seen: [VMSubscriptionEvent] = []
        for _ in 0..<4 { if let event = try await iterator.next() { seen.append(event) } }
        #expect(Self.seqs(seen) == [1, 2, 3, 4])
        let waiting = Task { try await iterator.next() }
        for _ in 0..<5_000 where !channel.consumerIsWaiting { try await Task.sleep(for: .milliseconds(1)) }
        read = try [Self.event(5), Self.event(6)]
        #expect(channel.append(contentsOf: &read), "the consumer waits: the read owes one wake")
        channel.wake()
        #expect(Self.seqs([try #require(try await waiting.value)]) == [5])
        channel.finish()
        read = try [Self.event(7)]
        #expect(channel.append(contentsOf: &read) == false, "after the end: dropped")
        #expect(read.isEmpty)
    }

    @Test("reads' lists and single values buffered together are handed out in the order they came, then the end")
    func listsAndSingleValuesInOrder() async throws {
        let channel = SubscriptionChannel()
        var iterator = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel)).makeAsyncIterator()
        try channel.yield(Self.event(1))
        var read = try [Self.event(2), Self.event(3)]
        _ = channel.append(contentsOf: &read)
        try channel.yield(Self.event(4))  // joins the list before it
        var empty: [VMSubscriptionEvent] = []
        _ = channel.append(contentsOf: &empty)  // keeps no empty list
        read = try [Self.event(5)]
        _ = channel.append(contentsOf: &read)
        var seen: [VMSubscriptionEvent] = []
        for _ in 0..<3 { if let event = try await iterator.next() { seen.append(event) } }
        read = try [Self.event(6), Self.event(7)]  // while the iterator holds the lists taken before
        _ = channel.append(contentsOf: &read)
        channel.finish()
        while let event = try await iterator.next() { seen.append(event) }
        #expect(Self.seqs(seen) == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test("a copy of an iterator reads the rest of the list it was copied with, and so does the iterator; copied out and back between calls, it misses nothing")
    func iteratorCopiesReadTheirList() async throws {
        let channel = SubscriptionChannel()
        var iterator = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel)).makeAsyncIterator()
        var read = try [Self.event(1), Self.event(2), Self.event(3), Self.event(4)]
        _ = channel.append(contentsOf: &read)
        var seen: [VMSubscriptionEvent] = []
        if let event = try await iterator.next() { seen.append(event) }  // 1, moved out: no copy yet
        var copy = iterator
        for _ in 0..<2 { if let event = try await copy.next() { seen.append(event) } }
        #expect(Self.seqs(seen) == [1, 2, 3])
        seen = []
        for _ in 0..<3 { if let event = try await iterator.next() { seen.append(event) } }
        #expect(Self.seqs(seen) == [2, 3, 4], "the copy took nothing from the iterator's list")
        // Copied out of an array and written back around each call, as a receiver of many
        // subscriptions may keep them.
        read = try (5...9).map(Self.event)
        _ = channel.append(contentsOf: &read)
        var stored = [iterator]
        seen = []
        for _ in 0..<5 {
            var current = stored[0]
            if let event = try await current.next() { seen.append(event) }
            stored[0] = current
        }
        #expect(Self.seqs(seen) == [5, 6, 7, 8, 9])
        _ = copy
    }

    @Test("finish ends the sequence after the buffered events; a failure is thrown once, after them")
    func finishAfterBufferedEvents() async throws {
        let channel = SubscriptionChannel()
        var iterator = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel)).makeAsyncIterator()
        try channel.yield(Self.event(1))
        try channel.yield(Self.event(2))
        channel.finish(throwing: VMClientError.closed)
        try channel.yield(Self.event(3))  // after the end: dropped
        var seen: [VMSubscriptionEvent] = []
        while let event = try? await iterator.next() { seen.append(event) }
        #expect(Self.seqs(seen) == [1, 2])
        #expect(try await iterator.next() == nil, "after the end, nil again")
    }

    @Test("the failure a sequence ends with is thrown to its consumer")
    func failureIsThrown() async throws {
        let channel = SubscriptionChannel()
        var iterator = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel)).makeAsyncIterator()
        channel.finish(throwing: VMClientError.disconnected(reason: "gone"))
        do {
            _ = try await iterator.next()
            Issue.record("the end did not throw")
        } catch {
            #expect("\(error)" == "\(VMClientError.disconnected(reason: "gone"))")
        }
    }

    @Test("dropping every copy of a subscription before its end gives it up once; after its end, not at all")
    func droppingGivesUp() async throws {
        let calls = Mutex(0)
        let channel = SubscriptionChannel()
        var subscription: VMSubscription? = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel))
        channel.onCancel = { calls.withLock { $0 += 1 } }
        var iterator = subscription?.makeAsyncIterator()
        subscription = nil
        #expect(calls.withLock { $0 } == 0, "an iterator still holds it")
        iterator = nil
        _ = iterator
        #expect(calls.withLock { $0 } == 1)
        #expect(try channel.append(Self.event(1)) == false)

        let ended = SubscriptionChannel()
        ended.onCancel = { calls.withLock { $0 += 1 } }
        var finished: VMSubscription? = VMSubscription(id: "sub-2", instance: "c", consumer: SubscriptionConsumer(channel: ended))
        ended.finish()
        _ = finished
        finished = nil
        #expect(calls.withLock { $0 } == 1, "a finished subscription is not given up")
    }

    @Test("cancelling the task waiting on a subscription ends its sequence and gives it up")
    func cancellingTheWaitingTask() async throws {
        let calls = Mutex(0)
        let channel = SubscriptionChannel()
        channel.onCancel = { calls.withLock { $0 += 1 } }
        let subscription = VMSubscription(id: "sub-1", instance: "c", consumer: SubscriptionConsumer(channel: channel))
        let consumer = Task {
            var count = 0
            for try await _ in subscription { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(20))
        consumer.cancel()
        #expect(try await consumer.value == 0)
        #expect(calls.withLock { $0 } == 1)
    }
}

extension VMOutputEvent {
    /// A `vm.output` of Counter's `count`.
    fileprivate static var sample: VMOutputEvent {
        get throws {
            try VMOutputEvent(json: ["subscription": "sub-1", "instance": "c", "output": "count", "value": 1, "seq": 1])
        }
    }
}
