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

    /// The entry whose spelling the bytes of `frame` at `start` begin with, followed by the
    /// output name's closing quote, and the position of that quote; nil when none is. (A
    /// match needs no scan of the names: a spelling is kept only once read as plain names.)
    mutating func find(in frame: UnsafeRawBufferPointer, at start: Int) -> (entry: Int, quote: Int)? {
        let count = entries.count
        var index = next
        for _ in 0..<count {
            if let quote = Self.spelling(entries[index].spelling, isAt: start, in: frame) {
                next = index &+ 1 == count ? 0 : index &+ 1
                return (index, quote)
            }
            index = index &+ 1 == count ? 0 : index &+ 1
        }
        return nil
    }

    /// Keeps `names`, spelled by `spelling` (see ``Entry/spelling``); returns its entry.
    mutating func add(_ names: OutputNames, spelledBy spelling: UnsafeRawBufferPointer) -> Int {
        let entry = Entry(spelling: Array(spelling), names: names)
        let count = entries.count
        guard count == Self.capacity else {
            entries.append(entry)
            next = 0
            return count
        }
        let index = next
        entries[index] = entry
        next = index &+ 1 == count ? 0 : index &+ 1
        return index
    }

    /// Calls `body` with the names of `entry` (from ``find(in:at:)`` or ``add(_:spelledBy:)``)
    /// and the route their frames took last.
    mutating func withEntry<Result>(_ entry: Int, _ body: (OutputNames, inout OutputRoute) -> Result) -> Result {
        body(entries[entry].names, &entries[entry].route)
    }

    /// The position of the quote right after `spelling` when `frame` holds `spelling` at
    /// `start`, compared without a branch per byte (as OutputFrameReader.swift's `matches`).
    private static func spelling(_ spelling: [UInt8], isAt start: Int, in frame: UnsafeRawBufferPointer) -> Int? {
        spelling.withUnsafeBytes { spelling in
            let quote = start &+ spelling.count
            guard start >= 0, quote < frame.count, frame[quote] == UInt8(ascii: "\"") else { return nil }
            var difference: UInt8 = 0
            for offset in 0..<spelling.count {
                difference |= spelling[offset] ^ frame[start &+ offset]
            }
            return difference == 0 ? quote : nil
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
