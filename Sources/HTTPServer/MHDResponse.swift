import CMicroHTTPD

/// MHD's response for `headers` and `body`: the one place a response is handed to libmicrohttpd, for each
/// request's answer and for `PreparedResponse`s. The caller destroys it (after queueing, or when done with it).
/// The body is copied; `Content-Length` is left to MHD, which writes it from the body, or from `headLength` for
/// a `HEAD` answer made without its body; `X-Content-Type-Options: nosniff` is added unless set.
/// MHD refuses a header value containing CR or LF: `keepingRefused` is given the header's name and says whether
/// to go on without it (true) or to give the response up (false: nil).
func makeMHDResponse(headers: HTTPHeaders, body: [UInt8], headLength: UInt64? = nil, keepingRefused: (String) -> Bool) -> OpaquePointer? {
    let made: OpaquePointer?
    if let headLength {
        made = MHD_create_response_from_callback(headLength, 4096, mhdNoBody, nil, nil)
    } else {
        // "MHD_RESPMEM_MUST_COPY: MHD will make an internal copy of the buffer": the array may go away after this call.
        made = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let made else { return nil }
    for (name, value) in headers where !HTTPHeaders.equal(name, "Content-Length") {
        // Explicit `withCString`: the implicit String-to-pointer conversion copies each string into a new array.
        let added = name.withCString { name in value.withCString { MHD_add_response_header(made, name, $0) } }
        if added != .YES && !keepingRefused(name) {
            MHD_destroy_response(made)
            return nil
        }
    }
    if headers[HTTPHeaders.noSniff.name] == nil {
        _ = MHD_add_response_header(made, HTTPHeaders.noSniff.name, HTTPHeaders.noSniff.value)
    }
    return made
}

/// `HEAD` answers carry the `GET` body's length but no body: MHD never reads a body for `HEAD`, so this
/// reader is never called; if it were, it ends the response with an error.
private func mhdNoBody(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    -2 // MHD_CONTENT_READER_END_WITH_ERROR
}
