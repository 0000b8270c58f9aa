/// A transport framing problem: a frame too large, or LSP headers that make no sense.
package struct FramingError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// A frame larger than the limit; its bytes are skipped, not buffered.
        case frameTooLarge(limit: Int)
        /// The LSP header block grew past its limit without ending in `\r\n\r\n`.
        case headerTooLarge(limit: Int)
        /// An LSP header line that is not `Name: value`, or a bad `Content-Length` value.
        case malformedHeader
        /// An LSP header block without `Content-Length`.
        case missingContentLength
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether the framer can go on to the next frame after this error (an over-long frame is
    /// skipped whole); after any other error the stream cannot be re-synchronized.
    package var isRecoverable: Bool {
        if case .frameTooLarge = kind { return true }
        return false
    }

    static func tooLarge(limit: Int) -> FramingError {
        FramingError(.frameTooLarge(limit: limit), "frame exceeds the maximum of \(limit) bytes")
    }

    package var description: String { message }
}
