import Foundation
import HTTPServer
import Postgres

/// The cookie that carries a single sign-on's `state` from the start to the callback (the session's own cookie is
/// `SessionIssuer`'s).
enum SSOStateCookie {
    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, `Secure` over HTTPS.
    static func cookie(_ name: String, _ value: String, path: String, maxAge: Int, request: Request) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (request.scheme == "https" ? "; Secure" : "")
    }

    /// The value of the cookie `name` the request carries; nil when it has none.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }
}
