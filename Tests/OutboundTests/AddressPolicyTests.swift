import Outbound
import Testing

/// `CIDR` parsing and `AddressPolicy`'s judgement of addresses and hosts (the connect-time check is in
/// `HTTPClientSendTests`).
@Suite("Address policy")
struct AddressPolicyTests {
    @Test(arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"),
        ("0.0.0.0/0", "0.0.0.0/0"),
        ("192.168.1.7", "192.168.1.7/32"),
        ("192.168.1.7/32", "192.168.1.7/32"),
        ("172.16.0.0/12", "172.16.0.0/12"),
        ("::/0", "::/0"),
        ("::1", "::1/128"),
        ("FD00::/8", "fd00::/8"),
        ("2001:db8:0:0::/64", "2001:db8::/64"),
        ("::ffff:10.0.0.0/104", "::ffff:10.0.0.0/104"),
        ("::ffff:127.0.0.1/128", "::ffff:127.0.0.1/128"),
    ])
    func readsARange(text: String, canonical: String) throws {
        #expect(try CIDR(text).description == canonical)
    }

    @Test(arguments: [
        ("", "not a numeric"),
        ("10.0.0.0/", "not a decimal"),
        ("10.0.0.0/33", "over 32"),
        ("::/129", "over 128"),
        ("10.0.0.0/1000", "not a decimal"),
        ("10.0.0.1/8", "the range is 10.0.0.0/8"),
        ("::ffff:10.0.0.1/104", "the range is ::ffff:10.0.0.0/104"),
        ("fd00::1/8", "the range is fd00::/8"),
        ("10.0.0.0/08", "not a decimal"),
        ("10.0.0.0/+8", "not a decimal"),
        ("10.0.0.0/-1", "not a decimal"),
        ("10.0.0.0/ 8", "not a decimal"),
        (" 10.0.0.0/8", "not a numeric"),
        ("10.0.0.0/8 ", "not a decimal"),
        ("10.0.0/8", "not a numeric"),
        ("010.0.0.0/8", "not a numeric"),
        ("10.0.0.0/8/8", "more than one"),
        ("[::1]/128", "not a numeric"),
        ("fe80::1%eth0/128", "not a numeric"),
        ("1.2.3.4.5/32", "not a numeric"),
        ("localhost/32", "not a numeric"),
    ])
    func refusesABadRangeSayingWhy(text: String, reason: String) {
        do {
            let range = try CIDR(text)
            Issue.record("read \(text) as \(range)")
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.description.contains("\"\(text)\""), "\(error)")
        }
    }

    @Test func aRangeHoldsItsOwnFamilyOnly() throws {
        let v4 = try CIDR("10.0.0.0/8")
        #expect(v4.contains(try #require(IPAddress("10.255.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("::ffff:10.0.0.1"))))
        #expect(try CIDR("0.0.0.0/0").contains(try #require(IPAddress("203.0.113.9"))))
        #expect(try CIDR("fc00::/7").contains(try #require(IPAddress("fdff::1"))))
        #expect(!(try CIDR("fc00::/7").contains(try #require(IPAddress("fe00::1")))))
    }

    /// Each refused by default, with the range the refusal names.
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.0/8"), ("127.255.255.254", "127.0.0.0/8"), ("0.0.0.0", "0.0.0.0/8"),
        ("10.1.2.3", "10.0.0.0/8"), ("172.16.0.1", "172.16.0.0/12"), ("172.31.255.255", "172.16.0.0/12"),
        ("192.168.0.1", "192.168.0.0/16"), ("100.64.0.1", "100.64.0.0/10"), ("100.127.255.255", "100.64.0.0/10"),
        ("169.254.169.254", "169.254.169.254/32 (cloud metadata"), ("169.254.1.1", "169.254.0.0/16 (link-local)"),
        ("224.0.0.1", "224.0.0.0/4"), ("239.255.255.250", "224.0.0.0/4"), ("240.0.0.1", "240.0.0.0/4"),
        ("255.255.255.255", "255.255.255.255/32 (broadcast)"), ("192.0.2.1", "192.0.2.0/24"),
        ("198.18.0.1", "198.18.0.0/15"),
        ("::1", "::1/128 (loopback)"), ("::", "::/128 (unspecified)"), ("fe80::1", "fe80::/10"),
        ("fc00::1", "fc00::/7"), ("fd12:3456::1", "fc00::/7"), ("fd00:ec2::254", "fd00:ec2::254/128 (cloud metadata"),
        ("ff02::1", "ff00::/8"), ("::10.0.0.1", "::/96"), ("2001:db8::1", "2001:db8::/32"),
        ("::ffff:127.0.0.1", "IPv4-mapped (::ffff:0.0.0.0/96) for 127.0.0.1, and 127.0.0.1 is in 127.0.0.0/8"),
        ("::ffff:169.254.169.254", "169.254.169.254/32"),
        ("64:ff9b::a00:1", "NAT64 (64:ff9b::/96) for 10.0.0.1, and 10.0.0.1 is in 10.0.0.0/8"),
        ("2002:a9fe:a9fe::1", "6to4 (2002::/16) for 169.254.169.254"),
    ])
    func refusesAnInternalAddressNamingItsRange(text: String, range: String) throws {
        let refusal = AddressPolicy().refusal(for: try #require(IPAddress(text)))
        #expect(refusal?.contains(range) == true, "\(text): \(String(describing: refusal))")
        #expect(refusal?.hasPrefix(try #require(IPAddress(text)).description) == true)
        #expect(!AddressPolicy().allows(try #require(IPAddress(text))))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "223.255.255.255",
        "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
        "2002:808:808::1",
    ])
    func allowsAPublicAddress(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy().allows(address))
        #expect(AddressPolicy().refusal(for: address) == nil)
    }

    @Test func anAllowedRangeReallowsWhatItHoldsOnly() throws {
        let policy = AddressPolicy(allowing: [try CIDR("10.0.0.0/8"), try CIDR("fd00:1::/32")])
        #expect(policy.allows(try #require(IPAddress("10.9.8.7"))))
        #expect(policy.allows(try #require(IPAddress("::ffff:10.9.8.7"))))
        #expect(policy.allows(try #require(IPAddress("fd00:1::5"))))
        #expect(!policy.allows(try #require(IPAddress("fd00:2::5"))))
        #expect(!policy.allows(try #require(IPAddress("127.0.0.1"))))
        #expect(!policy.allows(try #require(IPAddress("169.254.169.254"))))
        #expect(!policy.allows(try #require(IPAddress("192.168.1.1"))))
        let loopback = AddressPolicy(allowing: [try CIDR("127.0.0.0/8")])
        #expect(loopback.allows(try #require(IPAddress("127.0.0.1"))))
        #expect(!loopback.allows(try #require(IPAddress("::1"))))
    }

    @Test func judgesALiteralHostWithoutDNS() throws {
        let policy = AddressPolicy()
        #expect(try policy.check(host: "8.8.8.8").get() == [try #require(IPAddress("8.8.8.8"))])
        #expect(try policy.check(host: "[2606:4700:4700::1111]").get() == [try #require(IPAddress("2606:4700:4700::1111"))])
        for host in ["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]", "[fd00:ec2::254]", "0.0.0.0"] {
            guard case .failure(let failure) = policy.check(host: host) else {
                Issue.record("allowed \(host)")
                continue
            }
            #expect(failure.kind == .refusedAddress, "\(host)")
            #expect(!failure.message.contains("resolves"), "\(failure)")
        }
    }

    /// `localhost` goes through getaddrinfo: every address it gives must be allowed.
    @Test func resolvesANameAndRefusesItIfAnyAddressIsRefused() throws {
        guard case .failure(let refused) = AddressPolicy().check(host: "localhost") else {
            Issue.record("allowed localhost")
            return
        }
        #expect(refused.kind == .refusedAddress)
        #expect(refused.message.hasPrefix("localhost resolves to "), "\(refused)")
        #expect(refused.message.contains("(loopback)"), "\(refused)")
        let loopback = AddressPolicy(allowing: [try CIDR("127.0.0.0/8"), try CIDR("::1")])
        let addresses = try loopback.check(host: "localhost").get()
        #expect(addresses.contains(try #require(IPAddress("127.0.0.1"))), "\(addresses)")
        let unknown = AddressPolicy().check(host: "no-such-host.invalid")
        guard case .failure(let failure) = unknown else {
            Issue.record("resolved no-such-host.invalid")
            return
        }
        #expect(failure.kind == .dns, "\(failure)")
    }

    @Test func checksAURLsFormThenItsHost() throws {
        let policy = AddressPolicy()
        #expect(try policy.check(url: "https://8.8.8.8/hook", allowHTTP: false).get().host == "8.8.8.8")
        #expect(try policy.check(url: "http://8.8.8.8/hook", allowHTTP: true).get().scheme == "http")
        let cases: [(String, OutboundFailure.Kind)] = [
            ("http://8.8.8.8/hook", .refusedTarget), ("https://user@8.8.8.8/hook", .refusedTarget),
            ("https://8.8.8.8/hook#part", .refusedTarget), ("ftp://8.8.8.8/hook", .refusedTarget), ("/hook", .refusedTarget),
            ("https://127.0.0.1/hook", .refusedAddress), ("https://[::ffff:10.0.0.1]/hook", .refusedAddress),
            ("https://169.254.169.254/latest/meta-data/", .refusedAddress), ("https://localhost:8443/", .refusedAddress),
            // Other spellings of 127.0.0.1 and 169.254.169.254 (decimal, hex, short forms).
            ("https://2130706433/", .refusedAddress), ("https://0x7f.1/", .refusedAddress), ("https://127.1/", .refusedAddress),
            ("https://0251.0376.0251.0376/", .refusedAddress), ("https://0/", .refusedAddress),
        ]
        for (url, kind) in cases {
            guard case .failure(let failure) = policy.check(url: url, allowHTTP: false) else {
                Issue.record("allowed \(url)")
                continue
            }
            #expect(failure.kind == kind, "\(url): \(failure)")
        }
    }
}
