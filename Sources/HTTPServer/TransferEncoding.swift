import ByteText

/// The framing a request's `Transfer-Encoding` fields ask for, held to what MHD (0.9.75) frames: it reads a body
/// chunked only when the first such field is exactly `chunked` (any case), and any other value (`gzip, chunked`,
/// `chunked, identity`, `foo`) as a body of unknown length read until the connection closes, so the request is
/// neither answered nor ended. RFC 9112 §6.1 and §6.3 ask for 400 when `chunked` is not the final coding, and
/// the server supports no coding but `chunked`: everything else is refused (400) before the body is read.
enum TransferEncoding {
    /// Why the request's `Transfer-Encoding` fields are refused, or nil (none, or exactly one `chunked`).
    /// `values` are the fields' values in order; `isHTTP10`: the request line says `HTTP/1.0`.
    static func flaw(_ values: [String], isHTTP10: Bool) -> String? {
        guard let first = values.first else { return nil }
        if isHTTP10 {
            // "A server or client that receives an HTTP/1.0 message containing a Transfer-Encoding header field MUST
            // treat the message as if the framing is faulty" (RFC 9112 §6.1).
            return "Transfer-Encoding is not allowed in an HTTP/1.0 request."
        }
        if values.count == 1, HTTPHeaders.equal(first, "chunked") { return nil }
        let codings = values.flatMap { $0.split(separator: ",") }
            .map { String(decoding: $0.utf8.drop(while: ASCII.isBlank).reversed().drop(while: ASCII.isBlank).reversed(), as: UTF8.self) }
            .filter { !$0.isEmpty }
        guard let last = codings.last, HTTPHeaders.equal(last, "chunked") else {
            return "chunked is not the final transfer coding, so the body's length cannot be determined (RFC 9112 §6.3)."
        }
        if let other = codings.dropLast().first(where: { !HTTPHeaders.equal($0, "chunked") }) {
            return "The transfer coding \(other.prefix(40)) is not supported; only chunked is."
        }
        if codings.count > 1 { return "chunked is applied more than once." }
        return "Transfer-Encoding must be exactly one field: chunked."
    }
}
