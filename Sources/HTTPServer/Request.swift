import ByteText

/// One HTTP request as the router and handlers see it: an immutable-by-convention value.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path exactly as received (percent-encoding preserved), without the query.
    public var path: String
    /// Everything after the first `?`, undecoded; `nil` when the target had no `?`.
    public var rawQuery: String?
    /// The query's items, `+` and `%XX` decoded once into one buffer: `query(_:)` reads one as text, `withValue`
    /// parses one in place.
    public let decodedQuery: DecodedQuery
    /// Query items, `+` and `%XX` decoded, in the order they were sent (made as text at each call).
    public var queryItems: [(name: String, value: String)] { decodedQuery.items }
    /// Whether a decoded query item holds a NUL (`%00`), noticed while decoding: the `Router` refuses such a request.
    let queryHoldsNUL: Bool
    /// Request header fields.
    public var headers: HTTPHeaders
    /// The request body (empty when none).
    public var body: [UInt8]
    /// The client's numeric address: `"127.0.0.1"`, `"::1"`: the socket's peer, or, when that peer is a
    /// trusted proxy, the client its forwarding headers name (`TrustedProxies.forwarding(_:)`).
    public var remoteAddress: String
    /// The socket's peer address, whoever the client is.
    public var peerAddress: String
    /// `https` when a trusted proxy says the client used it, else `http` (linkd itself serves plain HTTP).
    public var scheme: String
    /// The client's `X-Request-ID` when sane (1–128 chars of `[A-Za-z0-9._-]`), otherwise a generated one.
    public var requestID: String {
        get { id.text }
        set { id = .text(newValue) }
    }
    private var id: RequestID.Value
    /// Path parameters of the matched route template, percent-decoded; filled by the `Router`.
    public var parameters: [String: String]
    /// The `Host` header lower-cased, without port and without IPv6 brackets; `nil` when absent or empty.
    public var host: String?

    /// Creates a request, e.g. for tests that call a `Router` directly.
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the raw path, percent-encoding preserved; a query after `?` is split off into `rawQuery` when `rawQuery` is `nil`.
    ///   - rawQuery: the raw query string without `?`.
    ///   - headers: header fields; `Host` fills `host`.
    ///   - body: the body bytes.
    ///   - remoteAddress: the client address.
    ///   - requestID: the request id; `nil` takes a sane `X-Request-ID` header or generates one.
    public init(
        method: HTTPMethod, path: String, rawQuery: String? = nil, headers: HTTPHeaders = .init(),
        body: [UInt8] = [], remoteAddress: String = "127.0.0.1", requestID: String? = nil
    ) {
        var path = path
        var rawQuery = rawQuery
        if rawQuery == nil, let question = path.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawQuery = String(path[path.utf8.index(after: question)...])
            path = String(path[..<question])
        }
        self.init(
            method: method, splitPath: path, rawQuery: rawQuery, headers: headers, body: body, remoteAddress: remoteAddress,
            checkedRequestID: .text(requestID.flatMap { RequestID.isSane($0) ? $0 : nil } ?? RequestID.accept(headers["X-Request-ID"])))
    }

    /// The server's request: the target already split at `?`, the request id already checked or generated.
    init(
        method: HTTPMethod, splitPath path: String, rawQuery: String?, headers: HTTPHeaders, body: [UInt8],
        remoteAddress: String, checkedRequestID requestID: RequestID.Value
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        var decodedNUL = false
        if var rawQuery {
            self.decodedQuery = rawQuery.withUTF8 { DecodedQuery($0, noticingNUL: &decodedNUL) }
        } else {
            self.decodedQuery = DecodedQuery()
        }
        self.queryHoldsNUL = decodedNUL
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.peerAddress = remoteAddress
        self.scheme = "http"
        self.id = requestID
        self.parameters = [:]
        self.host = headers["Host"].flatMap(Self.normalizedHost)
    }

    /// The first decoded value of query item `name`.
    public func query(_ name: String) -> String? {
        decodedQuery.value(name)
    }

    /// `Host` header → lower-case host without port; `[::1]:8080` → `::1`.
    static func normalizedHost(_ value: String) -> String? {
        // The usual header is already a bare lower-case name ("links.example.com"): return it as is.
        let bare = value.utf8.withContiguousStorageIfAvailable { bytes in
            guard let last = bytes.last, last != UInt8(ascii: ".") else { return false }
            return bytes.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
        }
        if bare == true { return value }
        // Otherwise (a port, brackets, a trailing dot, capitals, blanks): cut on the UTF-8 bytes, whose delimiters are ASCII.
        var value = value
        return value.withUTF8 { bytes -> String? in
            let trimmed = ASCII.trimmingBlanks(bytes)
            var start = trimmed.lowerBound, end = trimmed.upperBound
            if start < end, bytes[start] == UInt8(ascii: "[") {
                guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
                start += 1
                end = close
            } else if let colon = bytes[start..<end].lastIndex(of: UInt8(ascii: ":")) {
                end = colon
            }
            if end > start, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 } // "example.com." is the same name
            guard start < end else { return nil }
            let host = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard host.allSatisfy({ $0 < 0x80 }) else { return String(decoding: host, as: UTF8.self).lowercased() }
            return ASCII.lowercasedText(host)
        }
    }
}

extension String {
    /// The string without the spaces and tabs at either end.
    func trimmingASCIIWhitespace() -> String {
        var text = self
        return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[ASCII.trimmingBlanks($0)]), as: UTF8.self) }
    }
}
