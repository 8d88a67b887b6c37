import Testing
@testable import HTTPServer
import Observability
import TestSupport

@Suite("Trusted proxies")
struct TrustedProxiesTests {
    @Test(arguments: ["", "127.0.0.1", "10.0.0.0/8, 192.168.1.0/24", "::1", "fd00::/8,2001:db8::/32", " 0.0.0.0/0 , ::/0 ", "127.0.0.1,"])
    func parsesAddressesAndRanges(_ text: String) {
        #expect(TrustedProxies(parsing: text) != nil)
    }

    @Test(arguments: ["localhost", "10.0.0.0/33", "::/129", "10.0.0.1/8", "10.0.0.0/", "10.0.0.0/8/8", "fd00::1/8", "1.2.3", "10.0.0.0/+8"])
    func refusesWhatIsNoRange(_ text: String) {
        #expect(TrustedProxies(parsing: text) == nil)
    }

    @Test func matchesByPrefix() throws {
        let trusted = try #require(TrustedProxies(parsing: "10.0.0.0/8,192.168.1.128/25,fd00::/8,::1"))
        for address in ["10.0.0.1", "10.255.255.255", "192.168.1.128", "192.168.1.255", "fd12:3456::1", "::1", "::ffff:10.1.2.3"] {
            #expect(trusted.contains(address: address), "\(address)")
        }
        for address in ["11.0.0.1", "192.168.1.127", "fe80::1", "::2", "::ffff:11.1.2.3", "::a00:1", "not an address"] {
            #expect(!trusted.contains(address: address), "\(address)")
        }
        #expect(TrustedProxies().isEmpty)
        #expect(try #require(TrustedProxies(parsing: "0.0.0.0/0")).contains(address: "203.0.113.9"))
        #expect(try !#require(TrustedProxies(parsing: "0.0.0.0/0")).contains(address: "2001:db8::1"))
    }

    @Test func theClientIsTheRightMostHopNotTrusted() throws {
        let trusted = try #require(TrustedProxies(parsing: "10.0.0.0/8"))
        // A client wrote "1.1.1.1" itself; the edge proxy 10.0.0.5 appended the address it saw.
        let chain: HTTPHeaders = ["X-Forwarded-For": "1.1.1.1, 203.0.113.7, 10.0.0.5", "X-Forwarded-Proto": "https"]
        #expect(trusted.forwarding(chain) == .init(client: "203.0.113.7", scheme: "https"))
        // Separate fields are one list, in order.
        let split = HTTPHeaders([("X-Forwarded-For", "1.1.1.1"), ("X-Forwarded-For", "203.0.113.8, 10.1.1.1")])
        #expect(trusted.forwarding(split)?.client == "203.0.113.8")
        // Every hop trusted: the left-most is the best known.
        #expect(trusted.forwarding(["X-Forwarded-For": "10.9.9.9, 10.0.0.5"])?.client == "10.9.9.9")
        // The hop that would be the client is no address: none is believed.
        #expect(trusted.forwarding(["X-Forwarded-For": "1.1.1.1, unknown, 10.0.0.5"]) == nil)
        #expect(trusted.forwarding(["X-Forwarded-For": ""]) == nil)
        #expect(trusted.forwarding([:]) == nil)
        // Ports, brackets and other spellings become the server's own form of the address.
        #expect(trusted.forwarding(["X-Forwarded-For": "203.0.113.7:4711"])?.client == "203.0.113.7")
        #expect(trusted.forwarding(["X-Forwarded-For": "[2001:DB8:0::7]:4711"])?.client == "2001:db8::7")
        #expect(trusted.forwarding(["X-Forwarded-For": "2001:db8::7"])?.client == "2001:db8::7")
        #expect(trusted.forwarding(["X-Forwarded-For": "::ffff:203.0.113.7"])?.client == "203.0.113.7")
        // Only http and https are schemes; the right-most value is the one the nearest proxy wrote.
        #expect(trusted.forwarding(["X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "gopher"])?.scheme == nil)
        #expect(trusted.forwarding(["X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "http, HTTPS"])?.scheme == "https")
    }

    @Test func forwardedIsReadOnlyWithoutXForwardedFor() throws {
        let trusted = try #require(TrustedProxies(parsing: "10.0.0.0/8,fd00::/8"))
        let forwarded: HTTPHeaders = ["Forwarded": #"for=1.1.1.1, for="[2001:db8:cafe::17]:4711";proto=https;by=10.0.0.5, for=fd00::2"#]
        #expect(trusted.forwarding(forwarded) == .init(client: "2001:db8:cafe::17", scheme: "https"))
        #expect(trusted.forwarding(["Forwarded": "For=\"203.0.113.43:80\";Proto=http"]) == .init(client: "203.0.113.43", scheme: "http"))
        #expect(trusted.forwarding(["Forwarded": "for=_hidden, for=10.0.0.9"]) == nil)
        #expect(trusted.forwarding(["Forwarded": "proto=https"]) == nil)
        // A proxy writing X-Forwarded-For passes a client's own Forwarded through: it must not count.
        let both: HTTPHeaders = ["Forwarded": "for=6.6.6.6", "X-Forwarded-For": "203.0.113.7"]
        #expect(trusted.forwarding(both)?.client == "203.0.113.7")
    }

    @Test func aTrustedPeerNamesTheClient() throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.trustedProxies = try #require(TrustedProxies(parsing: "127.0.0.1"))
        try withLiveServer(configuration) { _, port in
            let forwarded = try HTTPTestClient.request(
                port: port, path: "/client",
                headers: [("X-Forwarded-For", "6.6.6.6, 203.0.113.7"), ("X-Forwarded-Proto", "https")])
            #expect(forwarded.text == "203.0.113.7 127.0.0.1 https")
            #expect(try HTTPTestClient.request(port: port, path: "/client").text == "127.0.0.1 127.0.0.1 http")
        }
    }

    @Test(arguments: ["", "10.0.0.0/8", "::1"])
    func anUntrustedPeerCannotSpoofItsAddress(_ list: String) throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.trustedProxies = try #require(TrustedProxies(parsing: list))
        try withLiveServer(configuration) { _, port in
            let spoofed = try HTTPTestClient.request(
                port: port, path: "/client",
                headers: [
                    ("X-Forwarded-For", "203.0.113.7"), ("Forwarded", "for=203.0.113.8;proto=https"), ("X-Forwarded-Proto", "https"),
                ])
            #expect(spoofed.text == "127.0.0.1 127.0.0.1 http")
        }
    }

    @Test func anIPv6PeerIsTrustedByItsRange() throws {
        let logger = Logger(label: "test", sink: .discard)
        var configuration = ServerConfiguration(host: "::1", port: 0)
        configuration.trustedProxies = try #require(TrustedProxies(parsing: "::1/128"))
        let server = Server(
            configuration: configuration, responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()), logger: logger)
        try server.start()
        defer { server.shutdown() }
        let client = try HTTPTestClient(port: server.port, host: "::1")
        let response = try client.request("GET", "/client", headers: [("Host", "[::1]"), ("X-Forwarded-For", "2001:db8::7, ::1")])
        #expect(response.text == "2001:db8::7 ::1 http")
    }
}
