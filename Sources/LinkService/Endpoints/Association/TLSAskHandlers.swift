import ByteText
import HTTPServer

/// `GET /v1/tls/ask?domain=<host>`: whether a TLS front end (Caddy's on-demand TLS `ask`) may get a certificate
/// for `host`. 200 for a name linkd serves (a registered domain, a name a wildcard domain governs, the
/// configured API hostname), 404 for anything else, so nobody can make the front end request certificates for
/// hosts linkd does not serve. Answered from the in-memory catalog, without a key: Caddy cannot send one, and
/// the answer tells no more than fetching the host's association file does (docs/DEPLOYMENT.md).
struct TLSAskHandlers: EndpointGroup {
    let catalog: Catalog
    /// The API's own hostname (`--api-hostname`), lower-case; nil when not configured.
    let apiHostname: String?

    private static let domain = QueryParameter("domain", Schema.hostname, "The hostname a certificate is wanted for.", required: true)

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/tls/ask", "askTLSCertificate", "Whether a TLS front end may get a certificate for a hostname", tag: "Service",
                access: .public,
                description:
                    "For Caddy's on-demand TLS `ask`: 200 for a registered link domain, a name a wildcard domain governs and the configured API hostname (`--api-hostname`); 404 for anything else. Answered from the in-memory catalog, without a key (docs/DEPLOYMENT.md).",
                query: [Self.domain],
                success: .json(200, "TLSAsk"), errors: [404]
            ) { try ask($0) }
        ]
    }

    func ask(_ request: Request) throws -> Response {
        var host = try Self.domain.value(in: request)!.lowercased()
        if host.hasSuffix(".") { host.removeLast() } // "example.com." is the same name
        guard !host.isEmpty, host == apiHostname || (!host.hasPrefix("*.") && catalog.entry(governing: host) != nil) else {
            throw ServiceError.notFound("A link domain for '\(host)'")
        }
        var body = Array(#"{"domain":"#.utf8)
        JSONString.append(host, to: &body)
        body.append(UInt8(ascii: "}"))
        return .json(body)
    }
}
