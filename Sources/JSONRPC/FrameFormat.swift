/// How frames are delimited on a connection.
package enum FrameFormat: Sendable, Hashable {
    /// NDJSON: one message per `\n`-terminated line.
    case lines
    /// LSP: `Content-Length: N\r\n\r\n` then N bytes.
    case contentLength

    /// Appends `message` (one encoded JSON-RPC message or batch) with this format's framing.
    package func appendFrame(_ message: some Collection<UInt8>, to buffer: inout [UInt8]) {
        switch self {
        case .lines:
            buffer.append(contentsOf: message)
            buffer.append(UInt8(ascii: "\n"))
        case .contentLength:
            appendContentLengthHeader(message.count, to: &buffer)
            buffer.append(contentsOf: message)
        }
    }

    /// Encodes a message with `body` directly into `buffer`, framed: no intermediate copy for
    /// lines; for Content-Length the header is inserted in front once the length is known.
    package func appendFramed<E: Error>(to buffer: inout [UInt8], _ body: (inout [UInt8]) throws(E) -> Void) throws(E) {
        switch self {
        case .lines:
            try body(&buffer)
            buffer.append(UInt8(ascii: "\n"))
        case .contentLength:
            let start = buffer.count
            try body(&buffer)
            var header: [UInt8] = []
            appendContentLengthHeader(buffer.count - start, to: &header)
            buffer.insert(contentsOf: header, at: start)
        }
    }

    private func appendContentLengthHeader(_ length: Int, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "Content-Length: ".utf8)
        buffer.append(contentsOf: String(length).utf8)
        buffer.append(contentsOf: "\r\n\r\n".utf8)
    }
}
