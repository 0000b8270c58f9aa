/// Splits a byte stream into frames (one JSON-RPC message or batch each).
///
/// Feed whatever the socket delivered with ``append(_:)``, then call ``nextFrame()`` until it
/// returns `nil`. Frames are slices of the framer's buffer: handle (or copy) each before the
/// next `append`, or the buffer is copied on write.
package protocol MessageFramer {
    /// The largest frame accepted, in bytes.
    var maxFrameBytes: Int { get }
    /// Bytes held but not yet returned as frames.
    var bufferedByteCount: Int { get }
    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer)
    /// The next complete frame, `nil` if more bytes are needed.
    mutating func nextFrame() throws(FramingError) -> ArraySlice<UInt8>?
}

extension MessageFramer {
    /// Adds received bytes from any byte collection.
    package mutating func append(contentsOf bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { append($0) }
        }
    }
}
