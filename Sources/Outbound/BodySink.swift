import CCurl

/// Where a transfer's body goes (`CURLOPT_WRITEDATA`): the bytes, up to `limit`.
final class BodySink {
    let limit: Int
    /// Whether a body past `limit` keeps its first `limit` bytes (the transfer still stops there) rather than
    /// being refused.
    let truncates: Bool
    private(set) var bytes: [UInt8] = []
    /// Set when the body went past `limit` and the transfer was stopped for it.
    private(set) var exceeded = false

    init(limit: Int, truncates: Bool = false) {
        self.limit = limit
        self.truncates = truncates
    }

    /// Takes `count` bytes; false (stop the transfer) when they would pass the limit, after keeping the bytes
    /// up to it when truncating.
    func take(_ data: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count + data.count <= limit else {
            if truncates { bytes.append(contentsOf: data.prefix(limit - bytes.count)) }
            exceeded = true
            return false
        }
        bytes.append(contentsOf: data)
        return true
    }
}

/// `CURLOPT_WRITEFUNCTION`: hands each chunk of the body to the `BodySink` in `context`. Returning less than it
/// was given makes libcurl stop the transfer (`CURLE_WRITE_ERROR`). A plain function, not a closure: libcurl
/// calls it on the requesting thread, with Swift state reached only through `context` (docs/field-notes.md §2).
func bodySinkWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    return sink.take(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
