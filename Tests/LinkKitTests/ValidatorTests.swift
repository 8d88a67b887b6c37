import Testing
@testable import LinkKit

@Suite struct ValidatorTests {
    @Test(arguments: ["ABCDE12345", "0123456789", "ZZZZZZZZZZ"])
    func acceptsTeamIDs(_ text: String) throws { #expect(try TeamID(text).rawValue == text) }

    @Test(arguments: ["abcde12345", "ABCD1234", "ABCDE123456", "ABCDE-1234", "", "ABCDÉ12345"])
    func rejectsTeamIDs(_ text: String) {
        #expect { try TeamID(text) } throws: { ($0 as? LinkKitError)?.code == .invalidTeamID }
    }

    @Test(arguments: ["com.example.app", "com.Example-App.x1", "App"])
    func acceptsBundleIDs(_ text: String) throws { _ = try BundleID(text) }

    @Test(arguments: ["", "com..app", ".com.app", "com.app.", "com.ex_ample", "com.exämple", "com example"])
    func rejectsBundleIDs(_ text: String) {
        #expect { try BundleID(text) } throws: { ($0 as? LinkKitError)?.code == .invalidBundleID }
    }

    @Test func bundleIDsCompareCaseInsensitively() throws {
        #expect(try BundleID("com.Example.App") == BundleID("com.example.app"))
        #expect(Set([try BundleID("a.B"), try BundleID("a.b")]).count == 1)
    }

    @Test func appIDs() throws {
        let appID = try AppID("ABCDE12345.com.example.app")
        #expect(appID.teamID.rawValue == "ABCDE12345" && appID.bundleID.rawValue == "com.example.app")
        #expect(appID.description == "ABCDE12345.com.example.app")
        #expect { try AppID("ABCDE12345") } throws: { ($0 as? LinkKitError)?.code == .invalidAppID }
        #expect { try AppID("abc.com.example") } throws: { ($0 as? LinkKitError)?.code == .invalidTeamID }
        #expect { try AppID("ABCDE12345.com..x") } throws: { ($0 as? LinkKitError)?.code == .invalidBundleID }
    }

    @Test(arguments: ["com.example.app", "a.b", "com.example.my_app2", "Com.Example"])
    func acceptsPackageNames(_ text: String) throws { _ = try AndroidPackageName(text) }

    @Test(arguments: ["app", "com.example.", "com..app", "com.1app", "com.ex-ample", "com._app", ""])
    func rejectsPackageNames(_ text: String) {
        #expect { try AndroidPackageName(text) } throws: { ($0 as? LinkKitError)?.code == .invalidPackageName }
    }

    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test func fingerprints() throws {
        let value = try CertificateFingerprint(Self.fingerprint)
        #expect(value.bytes.count == 32 && value.bytes[0] == 0x14 && value.description == Self.fingerprint)
        #expect(try CertificateFingerprint(normalizing: Self.fingerprint.lowercased().replacingOccurrences(of: ":", with: "")) == value)
    }

    @Test(arguments: [
        (fingerprint.lowercased(), "lower-case"), (fingerprint.replacingOccurrences(of: ":", with: ""), "no colons"),
        (String(fingerprint.dropLast(3)), "32 hex bytes"), (fingerprint.replacingOccurrences(of: "14", with: "G4"), "32 hex bytes"),
        ("", "32 hex bytes"),
    ])
    func rejectsFingerprints(_ text: String, _ reason: String) {
        #expect { try CertificateFingerprint(text) } throws: {
            guard let error = $0 as? LinkKitError else { return false }
            return error.code == .invalidFingerprint && error.message.contains(reason)
        }
    }

    @Test(arguments: [
        ("Example.COM.", "example.com"), ("bücher.example", "xn--bcher-kva.example"), ("*.Example.com", "*.example.com"),
        ("a-b.c0.example", "a-b.c0.example"), (" www.example.com ", "www.example.com"),
        // Names of ASCII letters, digits, '-' and '.' are checked byte by byte: the limits hold there too.
        ("123.Example", "123.example"), ("A.b.C", "a.b.c"), ("x--y.example.", "x--y.example"),
        (String(repeating: "a", count: 63) + ".com", String(repeating: "a", count: 63) + ".com"),
        (Self.name(length: 253), Self.name(length: 253)),
    ])
    func normalisesHostnames(_ text: String, _ expected: String) throws {
        #expect(try Hostname(text).rawValue == expected)
    }

    @Test(arguments: [
        "example.com:8080", "https://example.com", "example.com/path", "192.168.0.1", "[::1]", "::1", "localhost", "",
        String(repeating: "a", count: 64) + ".com", (0..<64).map { _ in "abc" }.joined(separator: "."), "a..com", "-a.com",
        "a_b.com", "www.*.com", "*", "a.b.123",
        "a-.com", "a.-b.com", "example.com..", ".example.com", "1.2", "example.123", ".", Self.name(length: 254),
    ])
    func rejectsHostnames(_ text: String) {
        #expect { try Hostname(text) } throws: { ($0 as? LinkKitError)?.code == .invalidHostname }
    }

    /// A valid host name of `length` characters: labels of 63 `a`s, then a shorter one.
    static func name(length: Int) -> String {
        var labels: [String] = []
        var left = length
        while left > 64 {
            labels.append(String(repeating: "a", count: 63))
            left -= 64
        }
        return (labels + [String(repeating: "b", count: left)]).joined(separator: ".")
    }

    @Test func wildcardServing() throws {
        let wildcard = try Hostname("*.example.com")
        #expect(wildcard.isWildcard && wildcard.servingHost == "example.com")
        #expect(Hostname.host("www.example.com", isServedBy: "*.example.com"))
        #expect(Hostname.host("a.b.example.com", isServedBy: "*.example.com"))
        #expect(Hostname.host("example.com", isServedBy: "*.example.com"))
        #expect(!Hostname.host("badexample.com", isServedBy: "*.example.com"))
        #expect(Hostname.host("example.com", isServedBy: "Example.COM."))
        #expect(!Hostname.host("other.com", isServedBy: "example.com"))
        #expect(Hostname.host("xn--bcher-kva.example", isServedBy: "bücher.example"))
    }

    @Test func hostnameSuffixes() throws {
        #expect(try Hostname(suffix: ".Example.COM").rawValue == "example.com")
        #expect(try Hostname(suffix: "bücher.example").rawValue == "xn--bcher-kva.example")
        for text in ["*.example.com", "*", "com", "example.com:443", ""] {
            #expect { try Hostname(suffix: text) } throws: { ($0 as? LinkKitError)?.code == .invalidHostname }
        }
        #expect(Hostname.name("example.com", isWithin: "example.com"))
        #expect(Hostname.name("a.links.example.com", isWithin: "example.com"))
        #expect(Hostname.name("*.example.com", isWithin: "example.com"))
        #expect(!Hostname.name("*.example.com", isWithin: "links.example.com"), "the wildcard also governs example.com")
        #expect(!Hostname.name("badexample.com", isWithin: "example.com"))
        #expect(!Hostname.name("example.com.evil.example", isWithin: "example.com"))
    }

    @Test func errorDescriptionNamesCodeAndPointer() {
        let error = LinkKitError(.invalidTeamID, "bad").at("/applinks/details/0/appIDs/0")
        #expect(error.description == "invalidTeamID: bad (at /applinks/details/0/appIDs/0)")
    }
}
