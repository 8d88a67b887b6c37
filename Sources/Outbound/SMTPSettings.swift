import Foundation

/// Where and how linkd sends mail (`--smtp-url`, `--smtp-from`, `--smtp-starttls`; docs/PEOPLE.md, "Mail (SMTP)").
public struct SMTPSettings: Sendable, Equatable {
    /// Whether a `smtp://` connection is upgraded to TLS with STARTTLS (libcurl's `CURLOPT_USE_SSL`). A
    /// `smtps://` connection is TLS from its first byte whatever this says.
    public enum StartTLS: String, Sendable, CaseIterable {
        /// STARTTLS or no mail: a server that does not offer it fails the send (`CURLUSESSL_ALL`).
        case required
        /// STARTTLS when the server offers it, else plain text (`CURLUSESSL_TRY`): open to a downgrade.
        case ifOffered = "try"
        /// Plain text (a relay on the same host or network).
        case off
    }

    /// `smtp://[user:password@]host[:port]` or `smtps://…`; nil: no mail is sent.
    public var url: String?
    /// The sender's address.
    public var from = "linkd@localhost"
    public var startTLS = StartTLS.required
    /// PEM CA certificates the TLS trusts instead of the system's.
    public var caFile: String?
    /// The longest the connection may take.
    public var connectTimeout: Duration = .seconds(10)
    /// The longest one mail may take, connection included.
    public var timeout: Duration = .seconds(30)

    public init() {}

    /// Whether `text` is a URL `url` accepts: `smtp://` or `smtps://` with a host, and no query or fragment.
    public static func isValidURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { return false }
        return true
    }

    /// The URL as logs may show it: without the password.
    public var redactedURL: String {
        guard let url, var components = URLComponents(string: url) else { return "none" }
        if components.password != nil { components.password = "…" }
        return components.string ?? "smtp"
    }
}
