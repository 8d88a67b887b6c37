import CMicroHTTPD

extension Response {
    /// The response as HTTP/1.1 bytes, `Content-Length` from the body, for the two answers the server writes to a
    /// socket itself instead of through MHD: a connection refused at the connection limit, before MHD reads from
    /// it, and a bad `Content-Length`, which MHD 0.9.75 would answer with its head written twice.
    var wireBytes: [UInt8] {
        let reason = MHD_get_reason_phrase_for(UInt32(clamping: status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers where !HTTPHeaders.equal(name, "Content-Length") {
            head += "\(name): \(value)\r\n"
        }
        if headers[HTTPHeaders.noSniff.name] == nil { head += "\(HTTPHeaders.noSniff.name): \(HTTPHeaders.noSniff.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }
}
