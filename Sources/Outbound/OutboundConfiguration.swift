/// Where the association health checks may send requests and how (`--apple-cdn-url`, `--google-dal-url`,
/// `--check-resolve`, `--check-ca-file`, `--check-timeout`; docs/HEALTH.md, "Outbound HTTP").
public struct OutboundConfiguration: Sendable {
    /// Apple's CDN: `<base><host>` is the copy of a domain's association file iOS devices get.
    public var appleCDNBase = OutboundBase("https://app-site-association.cdn-apple.com/a/v1/")!
    /// Google's Digital Asset Links API: `<base>?source.web.site=https://<host>&relation=…`.
    public var googleDALBase = OutboundBase("https://digitalassetlinks.googleapis.com/v1/statements:list")!
    /// Names connected to at fixed addresses instead of through DNS.
    public var resolve: [ResolveOverride] = []
    /// The CA certificates (PEM) that TLS trusts instead of the system's; nil: the system's.
    public var caFile: String?
    /// The longest one request may take, connection included.
    public var timeout: Duration = .seconds(10)

    public init() {}

    /// The client's settings: these, with the client's own defaults for the rest.
    public var clientSettings: HTTPClient.Settings {
        var settings = HTTPClient.Settings()
        settings.timeout = timeout
        settings.connectTimeout = min(settings.connectTimeout, timeout)
        settings.resolve = resolve
        settings.caFile = caFile
        return settings
    }
}
