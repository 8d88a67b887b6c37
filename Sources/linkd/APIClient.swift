import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client for the commands that talk to a running linkd through its API (`linkd
/// codegen`): plain `http://` over one socket, `Connection: close`, the whole answer read to EOF. HTTPS is the
/// front end's (docs/DEPLOYMENT.md): point the command at a node's own listener.
struct APIClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Answer {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    let host: String
    let port: Int
    let key: String?

    /// - Parameter server: `http://host[:port]` (port 80 by default); a path after it is ignored.
    init(server: String, key: String?) throws {
        guard server.hasPrefix("http://") else {
            throw Failure(description: "--server must be an http:// URL of a linkd node (got '\(server)'); HTTPS is the front end's")
        }
        var authority = server.dropFirst("http://".count).prefix { $0 != "/" }
        var port = 80
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                throw Failure(description: "--server has an invalid port: '\(server)'")
            }
            port = number
            authority = authority[..<colon]
        }
        host = String(authority).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
        self.key = key
    }

    func get(_ path: String) throws -> Answer {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            throw Failure(description: "cannot resolve the host '\(host)'")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\nConnection: close\r\n"
        if let key { head += "Authorization: Bearer \(key)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            bytes += buffer[..<count]
        }
        return try Self.parse(bytes)
    }

    /// Status line, header fields and body (de-chunked when `Transfer-Encoding: chunked`).
    static func parse(_ bytes: [UInt8]) throws -> Answer {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual(separator) }) else {
            throw Failure(description: "the server's answer has no header end")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        guard let status else { throw Failure(description: "the server's answer has no status line") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[(end + 4)...])
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            var decoded: [UInt8] = []
            var index = 0
            while let lineEnd = (index..<max(index, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
                  let size = Int(String(decoding: body[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16), size > 0,
                  lineEnd + 2 + size <= body.count {
                decoded += body[(lineEnd + 2)..<(lineEnd + 2 + size)]
                index = lineEnd + 2 + size + 2
            }
            body = decoded
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
