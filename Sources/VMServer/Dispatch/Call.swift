import JSONCore
import JSONRPC

/// One request or notification being processed: who sent it, how its reply travels.
struct Call {
    let session: Session
    /// `nil` for a notification (never answered).
    let id: RequestID?
    let route: ReplyRoute
    let method: String
    let params: JSONValue?

    var isNotification: Bool { id == nil }
}

/// Where a call's response goes.
enum ReplyRoute {
    /// A notification: nowhere.
    case none
    /// Straight onto the connection.
    case direct
    /// Into slot `slot` of a batch response.
    case batch(BatchReply, slot: Int)
}

/// The responses of one batch: written as one array once the last request has completed
/// (PROTOCOL.md §4), so a slow `vm.execute` delays the whole array.
final class BatchReply {
    let session: Session
    private var slots: [[UInt8]?] = []
    private var missing = 0
    private var isSealed = false
    /// Bytes of the responses stored so far: with the connection's queued bytes, what the
    /// batch would add to its outbound buffer (see `Server.receive`).
    private(set) var producedBytes = 0

    init(session: Session) {
        self.session = session
    }

    /// Reserves the next response slot.
    func reserve() -> Int {
        slots.append(nil)
        missing += 1
        return slots.count - 1
    }

    /// Stores the response of `slot`; returns the whole array's parts when it is complete.
    func fill(_ slot: Int, with response: [UInt8]) -> [[UInt8]]? {
        guard slots[slot] == nil else { return nil }
        slots[slot] = response
        producedBytes += response.count
        missing -= 1
        return completed()
    }

    /// Every item was processed; returns the array's parts if nothing is pending.
    func seal() -> [[UInt8]]? {
        isSealed = true
        return completed()
    }

    private func completed() -> [[UInt8]]? {
        guard isSealed, missing == 0, !slots.isEmpty else { return nil }
        let responses = slots.compactMap { $0 }
        slots = []
        return responses
    }
}
