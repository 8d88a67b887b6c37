import HTTPServer

/// Cookies as linkd writes and reads them: the session's (`SessionIssuer`, `Authenticator.sessionTokens`) and a
/// single sign-on's `state` (`SSOSignInHandlers`).
enum Cookie {
    /// A `Set-Cookie` value: `HttpOnly` (no script reads it), `SameSite=Lax` (other sites' requests do not carry
    /// it, but for top-level navigations), and `Secure` when the request came over HTTPS (directly or, as
    /// `Request.scheme` says, through a trusted proxy). `maxAge` 0 removes the cookie.
    static func set(_ name: String, _ value: String, path: String, maxAge: Int, request: Request) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (request.scheme == "https" ? "; Secure" : "")
    }

    /// Calls `body` with the value of every cookie the request carries whose `name=` is `prefix`, in order. Read as
    /// bytes, the pairs split at `;` with the blanks around them trimmed: every cookie-authenticated request parses
    /// its `Cookie` fields.
    static func forEachValue(prefix: [UInt8], in request: Request, _ body: (String) -> Void) {
        for field in request.headers.values("Cookie") {
            var field = field
            field.withUTF8 { bytes in
                var index = 0
                while index < bytes.count {
                    while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: ";") { index += 1 }
                    var end = index
                    while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
                    let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    if pair.count > prefix.count, pair.starts(with: prefix) {
                        body(String(decoding: UnsafeBufferPointer(rebasing: pair[prefix.count...]), as: UTF8.self))
                    }
                    index += 1
                }
            }
        }
    }

    /// The value of the first cookie `name` the request carries; nil when it has none.
    static func value(_ name: String, in request: Request) -> String? {
        var found: String?
        forEachValue(prefix: Array("\(name)=".utf8), in: request) { value in
            if found == nil { found = value }
        }
        return found
    }
}
