/// What a caller wants to hear about on a descriptor.
package struct IOInterest: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let readable = IOInterest(rawValue: 1 << 0)
    package static let writable = IOInterest(rawValue: 1 << 1)
}

/// What the kernel reported ready on a descriptor.
///
/// `hangup` (the peer closed, or shut down its writing side) and `error` arrive whatever the
/// interest; a handler that sees them should read to drain and then close.
package struct IOEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let readable = IOEvents(rawValue: 1 << 0)
    package static let writable = IOEvents(rawValue: 1 << 1)
    package static let hangup = IOEvents(rawValue: 1 << 2)
    package static let error = IOEvents(rawValue: 1 << 3)

    package var description: String {
        var names: [String] = []
        if contains(.readable) { names.append("readable") }
        if contains(.writable) { names.append("writable") }
        if contains(.hangup) { names.append("hangup") }
        if contains(.error) { names.append("error") }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
