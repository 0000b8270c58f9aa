/// The names of the `vm.output` frames one connection read lately, each kept with the bytes
/// that spell them in a frame, so that a frame whose names were seen before gets the same
/// ``OutputNames`` back after one compare of those bytes, without making three `String`s.
/// Lives in the connection's ``SocketReader`` (the loop thread only).
///
/// A busy connection's frames cycle through its subscriptions (the daemon writes one
/// `vm.output` per subscription for each change, in the same order every time), so the entry
/// after the one found last is tried first, then the others in turn. At most ``capacity``
/// entries: past that, a new one takes the place of the entry that would have been tried first.
struct OutputNameCache {
    /// The most names kept (what a miss may compare).
    static let capacity = 32

    private struct Entry {
        /// The frame's bytes from the subscription id's first to the output name's last:
        /// `sub-3","instance":"busy","output":"count` (the keys between them are fixed).
        let spelling: [UInt8]
        let names: OutputNames
        var route = OutputRoute()
    }

    private var entries: [Entry] = []
    /// The entry tried first.
    private var next = 0

    /// Calls `body` with the names spelled by `spelling` (see ``Entry/spelling``), made by
    /// `make` the first time, and the route their frames took last.
    mutating func withNames<Result>(
        spelledBy spelling: UnsafeRawBufferPointer, make: () -> OutputNames,
        _ body: (OutputNames, inout OutputRoute) -> Result
    ) -> Result {
        let count = entries.count
        var index = next
        for _ in 0..<count {
            if Self.same(entries[index].spelling, spelling) {
                next = index &+ 1 == count ? 0 : index &+ 1
                return body(entries[index].names, &entries[index].route)
            }
            index = index &+ 1 == count ? 0 : index &+ 1
        }
        let entry = Entry(spelling: Array(spelling), names: make())
        if count < Self.capacity {
            entries.append(entry)
            index = count
            next = 0
        } else {
            index = next
            entries[index] = entry
            next = index &+ 1 == count ? 0 : index &+ 1
        }
        return body(entries[index].names, &entries[index].route)
    }

    /// Whether `stored` and `bytes` are the same bytes, compared without a branch per byte
    /// (as OutputFrameReader.swift's `matches`).
    private static func same(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        stored.withUnsafeBytes { stored in
            guard stored.count == bytes.count else { return false }
            var difference: UInt8 = 0
            for offset in 0..<stored.count {
                difference |= stored[offset] ^ bytes[offset]
            }
            return difference == 0
        }
    }
}

/// The channel the `vm.output` frames of one subscription went to, as the client's
/// `subscriptions` table held it at ``version`` (ClientCore+Routing.swift looks the id up
/// again when the table changed since).
struct OutputRoute {
    var sink: SubscriptionChannel?
    /// The table's ``ClientCore/State/subscriptionsVersion`` when ``sink`` was looked up; 0: never.
    var version: UInt64 = 0
}
