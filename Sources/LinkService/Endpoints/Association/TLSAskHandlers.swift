import ByteText
import HTTPServer

/// `GET /v1/tls/ask?domain=<host>`: whether a TLS front end (Caddy's on-demand TLS `ask`) may get a certificate
/// for `host`. 200 for a name linkd serves (a registered domain, a name a wildcard domain governs, the
/// configured API hostname), 404 for anything else, so nobody can make the front end request certificates for
/// hosts linkd does not serve. Answered from the in-memory catalog, without a key: Caddy cannot send one, and
/// the answer tells no more than fetching the host's association file does (docs/DEPLOYMENT.md).
struct TLSAskHandlers: Sendable {
    let catalog: Catalog
    /// The API's own hostname (`--api-hostname`), lower-case; nil when not configured.
    let apiHostname: String?

    func register(in routes: inout RouterBuilder) {
        routes.get("/v1/tls/ask") { try ask($0) }
    }

    func ask(_ request: Request) throws -> Response {
        guard let domain = request.query("domain"), !domain.isEmpty else {
            throw ServiceError.badRequest("Pass the hostname as ?domain=links.example.com")
        }
        var host = domain.lowercased()
        if host.hasSuffix(".") { host.removeLast() }   // "example.com." is the same name
        guard !host.isEmpty, host == apiHostname || (!host.hasPrefix("*.") && catalog.entry(governing: host) != nil) else {
            throw ServiceError.notFound("A link domain for '\(host)'")
        }
        var body = Array(#"{"domain":"#.utf8)
        JSONString.append(host, to: &body)
        body.append(UInt8(ascii: "}"))
        return .json(body)
    }
}
