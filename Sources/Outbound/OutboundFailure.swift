import CCurl

/// Why an outbound request got no answer: its kind, for a caller to tell "Apple's CDN is stale" from "we could
/// not ask", and the message libcurl (or the client) gave. A failure is never an answer: a check that fails
/// this way cannot read as healthy.
public struct OutboundFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// The host name did not resolve.
        case dns
        /// No TCP connection: refused, unreachable.
        case connect
        /// The TLS handshake or the certificate's verification failed (untrusted, expired, wrong name).
        case tls
        /// The connection or the whole transfer took longer than allowed.
        case timeout
        /// The body was larger than allowed.
        case tooLarge
        /// The URL is not one the client may fetch (`OutboundTargets`), or not an http(s) URL at all: refused
        /// before any connection.
        case refusedTarget
        /// The address a connection was to be made to (or a name resolved to) is one the request's
        /// `AddressPolicy` refuses (loopback, private, link-local, metadata, ...): refused before connecting.
        case refusedAddress
        /// The server's answer was not valid HTTP, or the connection ended in the middle of it.
        case `protocol`
        /// Anything else libcurl reports.
        case other
    }

    public var kind: Kind
    /// What went wrong, in libcurl's words when it was libcurl ("Failed to connect to ... Connection refused").
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// The kind of a libcurl result other than `CURLE_OK`.
    static func kind(of code: CURLcode) -> Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .dns
        case CURLE_COULDNT_CONNECT:
            .connect
        case CURLE_OPERATION_TIMEDOUT:
            .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED:
            .tls
        case CURLE_FILESIZE_EXCEEDED:
            .tooLarge
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            .refusedTarget
        case CURLE_WEIRD_SERVER_REPLY, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR,
            CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_BAD_CONTENT_ENCODING:
            .protocol
        default:
            .other
        }
    }
}
