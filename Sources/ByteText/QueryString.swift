/// The items of a raw query string (`a=1&b=x+y&a=%2F`), split as `URLComponents.queryItems` splits them: on `&`,
/// then on the first `=`, before any decoding; empty pieces are skipped. One splitter for the request's query
/// and the matcher's query items.
public enum QueryString {
    /// Calls `body` with each item's raw name and raw value (nil when the item has no `=`), in order.
    @inlinable
    public static func forEachItem(
        _ query: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>?) throws -> Void
    ) rethrows {
        var start = 0
        while start < query.count {
            var end = start
            while end < query.count, query[end] != UInt8(ascii: "&") { end += 1 }
            if start != end {
                var equals = start
                while equals < end, query[equals] != UInt8(ascii: "=") { equals += 1 }
                try body(
                    UnsafeBufferPointer(rebasing: query[start..<equals]),
                    equals < end ? UnsafeBufferPointer(rebasing: query[(equals + 1)..<end]) : nil)
            }
            start = end + 1
        }
    }
}
