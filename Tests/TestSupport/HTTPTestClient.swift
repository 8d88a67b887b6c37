import Glibc
import HTTPServer

/// A response read off the wire by `HTTPTestClient`.
public struct TestResponse: Sendable {
    /// Status code from the status line.
    public var status: Int
    /// Header fields in order.
    public var headers: HTTPHeaders
    /// The body, de-chunked.
    public var body: [UInt8]
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// What went wrong talking to the server.
public struct HTTPTestClientError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A minimal blocking HTTP/1.1 client over one POSIX socket, for tests: it sends exactly the bytes it is
/// given (so tests can send hostile input) and reads whole responses (Content-Length, chunked, or to EOF),
/// several over one connection. Not thread-safe: one client per thread.
public final class HTTPTestClient {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether the server closed the connection (EOF seen).
    public private(set) var peerClosed = false

    /// Connects to `host:port` with send/receive timeouts of `timeout` seconds, from `source` when given (an IPv4
    /// address of this machine, such as any of 127.0.0.0/8: the address the server sees).
    /// - Throws: `HTTPTestClientError` when the connection is refused or times out.
    public init(port: Int, host: String = "127.0.0.1", source: String? = nil, timeout: Double = 10) throws {
        let isV6 = host.contains(":")
        descriptor = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPTestClientError("socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = Self.withSocketAddress(&address) { connect(descriptor, $0, $1) }
        } else {
            if let source {
                var local = Self.ipv4(source, port: 0)
                guard Self.withSocketAddress(&local, { bind(descriptor, $0, $1) }) == 0 else { throw closing("bind to \(source)") }
            }
            var address = Self.ipv4(host, port: port)
            result = Self.withSocketAddress(&address) { connect(descriptor, $0, $1) }
        }
        guard result == 0 else { throw closing("connect to \(host):\(port)") }
    }

    /// Closes the socket after a failed `what` and answers the error saying why (`errno`). The socket is closed
    /// here and marked closed: deinit runs too when an initialised class's init throws, and a second close may hit
    /// the same number reused meanwhile by another thread (a server's accepted socket).
    private func closing(_ what: String) -> HTTPTestClientError {
        let message = String(cString: strerror(errno))
        Glibc.close(descriptor)
        descriptor = -1
        return HTTPTestClientError("\(what): \(message)")
    }

    /// Calls `body` with `address` as a `sockaddr` pointer and its length (for `bind` and `connect`).
    private static func withSocketAddress<Address>(_ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32
    {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    /// The IPv4 socket address of `address` (dotted text) and `port` (0: any, to bind a source).
    private static func ipv4(_ address: String, port: Int) -> sockaddr_in {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        return socketAddress
    }

    /// Closes the socket now.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends `bytes` as they are.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw HTTPTestClientError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request composed by `HTTPTestClient.compose` and reads its response. When sending fails
    /// (a server may answer early, e.g. 413, and reset the connection) the response is still read if it came.
    public func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> TestResponse {
        do {
            try send(Self.compose(method, target, headers: headers, body: body))
        } catch {
            guard let response = try? readResponse(forHEAD: method == "HEAD") else { throw error }
            return response
        }
        return try readResponse(forHEAD: method == "HEAD")
    }

    /// Reads one whole response. `forHEAD`: the response has no body whatever its `Content-Length` says.
    /// - Throws: `HTTPTestClientError` on timeout, EOF before a full response, or a malformed response.
    public func readResponse(forHEAD: Bool = false) throws -> TestResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw HTTPTestClientError("malformed status line: \(head.prefix(80))")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPTestClientError("malformed header: \(line)") }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmedOf(" \t"))
        }
        var body: [UInt8] = []
        if forHEAD || status == 204 || status == 304 || (100..<200).contains(status) {
            // no body
        } else if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            while true {
                let lineEnd = try readUntil([13, 10])
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                buffer.removeFirst(lineEnd + 2)
                guard let size = Int(String(sizeText).trimmedOf(" "), radix: 16) else { throw HTTPTestClientError("bad chunk size") }
                if size == 0 {
                    while true { // trailers until an empty line
                        let end = try readUntil([13, 10])
                        buffer.removeFirst(end + 2)
                        if end == 0 { break }
                    }
                    break
                }
                try fill(size + 2)
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
            }
        } else if let lengthText = headers["Content-Length"], let length = Int(lengthText) {
            try fill(length)
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while try receive() {}
            body = buffer
            buffer = []
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Waits up to `timeout` seconds for the server to close the connection; `true` when it did.
    public func waitForClose(timeout: Double) -> Bool {
        if peerClosed { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = Double(clockSeconds()) + timeout
        while Double(clockSeconds()) < deadline {
            let ready = poll(&entry, 1, 100)
            if ready > 0 {
                var scratch = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &scratch, scratch.count, 0)
                if count <= 0 { peerClosed = true; return true }
                buffer += scratch[..<count]
            }
        }
        return false
    }

    /// Whether the connection is still open right now (no EOF pending), without blocking.
    public func isOpen() -> Bool {
        if peerClosed { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return true }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK))
        return count > 0
    }

    /// One request on a fresh connection (`Connection: close`), e.g. `HTTPTestClient.request(port: p, path: "/healthz")`.
    public static func request(
        port: Int, method: String = "GET", path: String, headers: [(String, String)] = [],
        body: [UInt8]? = nil, source: String? = nil, timeout: Double = 10
    ) throws -> TestResponse {
        let client = try HTTPTestClient(port: port, source: source, timeout: timeout)
        var headers = headers
        if !headers.contains(where: { $0.0.lowercased() == "connection" }) { headers.append(("Connection", "close")) }
        return try client.request(method, path, headers: headers, body: body)
    }

    /// A request's bytes: request line, `Host` (unless given), the headers, `Content-Length` for a body.
    public static func compose(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: localhost\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    // MARK: reading

    private func receive() throws -> Bool {
        var scratch = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &scratch, scratch.count, 0)
        if count > 0 {
            buffer += scratch[..<count]
            return true
        }
        if count == 0 { peerClosed = true; return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPTestClientError("timed out waiting for the server") }
        throw HTTPTestClientError("recv: \(String(cString: strerror(errno)))")
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receive() else { throw HTTPTestClientError("connection closed mid-response") }
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                var index = searchFrom
                while index + marker.count <= buffer.count {
                    if buffer[index] == marker[0] && Array(buffer[index..<index + marker.count]) == marker { return index }
                    index += 1
                }
                searchFrom = max(0, buffer.count - marker.count + 1)
            }
            guard try receive() else { throw HTTPTestClientError("connection closed before a full response") }
        }
    }

    private func clockSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

private extension String {
    func trimmedOf(_ set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }) else { return "" }
        let last = lastIndex(where: { !characters.contains($0) })!
        return String(self[first...last])
    }
}
