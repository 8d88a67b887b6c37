import Outbound
import Testing

/// What `OutboundTargets` allows: URLs under the configured bases, and link domains' own `/.well-known/` files.
@Suite("Outbound targets")
struct OutboundTargetsTests {
    static let targets = OutboundTargets(OutboundConfiguration(), linkHosts: ["links.example.com", "Go.Example.ORG"])

    @Test(arguments: [
        "https://app-site-association.cdn-apple.com/a/v1/links.example.com",
        "https://APP-SITE-ASSOCIATION.cdn-apple.com/a/v1/links.example.com",
        "https://app-site-association.cdn-apple.com:443/a/v1/anything.example.net",
        "https://digitalassetlinks.googleapis.com/v1/statements:list?source.web.site=https://links.example.com&relation=delegate_permission/common.handle_all_urls",
        "https://links.example.com/.well-known/apple-app-site-association",
        "https://links.example.com/.well-known/assetlinks.json",
        "https://go.example.org/.well-known/assetlinks.json",
    ])
    func allows(_ url: String) {
        #expect(Self.targets.allows(url))
    }

    @Test(arguments: [
        // Not a base: another host, scheme or port, a path beside the base's, dot segments leaving it.
        "https://evil.example.com/a/v1/links.example.com",
        "http://app-site-association.cdn-apple.com/a/v1/links.example.com",
        "https://app-site-association.cdn-apple.com:8443/a/v1/links.example.com",
        "https://app-site-association.cdn-apple.com/a/v2/links.example.com",
        "https://app-site-association.cdn-apple.com/a/v1/../../admin",
        "https://app-site-association.cdn-apple.com/a/v1/%2e%2e/%2E%2E/admin",
        "https://app-site-association.cdn-apple.com.evil.com/a/v1/x",
        "https://digitalassetlinks.googleapis.com/v1/statements:listx",
        "https://digitalassetlinks.googleapis.com/v1/statements:list/more",
        "https://digitalassetlinks.googleapis.com/v1/other",
        // User information and fragments: never.
        "https://user:pw@app-site-association.cdn-apple.com/a/v1/links.example.com",
        "https://app-site-association.cdn-apple.com@evil.com/a/v1/links.example.com",
        "https://app-site-association.cdn-apple.com/a/v1/links.example.com#x",
        // Link domains: only https, port 443, /.well-known/, listed hosts.
        "http://links.example.com/.well-known/assetlinks.json",
        "https://links.example.com:8443/.well-known/assetlinks.json",
        "https://links.example.com/widgets/1",
        "https://links.example.com/.well-knownx/assetlinks.json",
        "https://links.example.com/x/../.well-known/../admin",
        "https://other.example.com/.well-known/assetlinks.json",
        "https://sub.links.example.com/.well-known/assetlinks.json",
        // Not http(s) URLs at all.
        "ftp://links.example.com/.well-known/assetlinks.json",
        "file:///etc/passwd",
        "/.well-known/assetlinks.json",
        "https://links.example.com/.well-known/a b",
        "https://links.example.com/.well-known/\u{0}x",
        "",
    ])
    func refuses(_ url: String) {
        let result = Self.targets.check(url)
        guard case .failure(let failure) = result else {
            Issue.record("allowed \(url)")
            return
        }
        #expect(failure.kind == .refusedTarget)
    }

    @Test func httpBasesServeTestsAndMirrors() throws {
        let mirror = try #require(OutboundBase("http://127.0.0.1:8099/apple/"))
        let targets = OutboundTargets(bases: [mirror.url])
        #expect(targets.allows("http://127.0.0.1:8099/apple/links.example.com"))
        #expect(!targets.allows("http://127.0.0.1:80990/apple/links.example.com"))
        #expect(!targets.allows("http://127.0.0.1:8099/other"))
        #expect(!targets.allows("http://127.0.0.1/apple/links.example.com"))
    }

    @Test func basesAreHTTPURLsWithoutQueryOrCredentials() {
        #expect(OutboundBase("https://mirror.example.com/a/v1/") != nil)
        #expect(OutboundBase("http://127.0.0.1:8080/") != nil)
        #expect(OutboundBase("ftp://mirror.example.com/") == nil)
        #expect(OutboundBase("https://mirror.example.com/x?y=1") == nil)
        #expect(OutboundBase("https://u:p@mirror.example.com/") == nil)
        #expect(OutboundBase("mirror.example.com") == nil)
    }

    @Test func resolveOverridesHaveTheShapeCurlTakes() throws {
        let v4 = try #require(ResolveOverride("App-Site-Association.cdn-apple.com:443:127.0.0.1"))
        #expect(v4.host == "app-site-association.cdn-apple.com" && v4.port == 443 && v4.address == "127.0.0.1")
        #expect(v4.description == "app-site-association.cdn-apple.com:443:127.0.0.1")
        let v6 = try #require(ResolveOverride("links.example.com:8443:[::1]"))
        #expect(v6.address == "::1" && v6.description == "links.example.com:8443:[::1]")
        for bad in [
            "links.example.com:443", "links.example.com:0:127.0.0.1", "links.example.com:70000:127.0.0.1",
            "links.example.com:443:localhost", "links.example.com:443:::1", ":443:127.0.0.1",
            "links example.com:443:127.0.0.1", "links.example.com:https:127.0.0.1", "links.example.com:443:127.0.0.1,10.0.0.1",
        ] {
            #expect(ResolveOverride(bad) == nil, "\(bad)")
        }
    }
}
