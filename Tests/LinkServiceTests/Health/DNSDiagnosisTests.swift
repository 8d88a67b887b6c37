import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Testing
import TestSupport

/// A name that did not resolve says which case it is and what to do (issue 46, item 6; docs/HEALTH.md, "When a name
/// does not resolve"). Only loopback and `.invalid` names are asked: nothing reaches the internet.
@Suite("DNS diagnosis")
struct DNSDiagnosisTests {
    /// An outcome failing with `kind`; nil: one whose name resolved (its answer was not HTTP).
    private static func outcome(_ url: String, _ kind: OutboundFailure.Kind?) -> FetchOutcome {
        FetchOutcome(url: url, result: .failure(OutboundFailure(kind ?? .protocol, "…")))
    }

    @Test func theOtherNamesOfTheRunTellWhichCaseItIs() {
        let origin = "https://links.example.com/.well-known/apple-app-site-association"
        let apple = "https://app-site-association.cdn-apple.com/a/v1/links.example.com"
        func causes(_ outcomes: [FetchOutcome]) -> [String?] {
            DNSDiagnosis.of(outcomes, linkHost: "links.example.com").map { $0?.cause.rawValue }
        }
        // Apple's name resolved (answered, or refused a connection): the link domain has no record.
        #expect(causes([Self.outcome(origin, .dns), Self.outcome(apple, nil)]) == ["no_record", nil])
        #expect(causes([Self.outcome(origin, .dns), Self.outcome(apple, .connect)]) == ["no_record", nil])
        // Nothing resolved: this server cannot resolve names.
        #expect(
            causes([Self.outcome(origin, .dns), Self.outcome(origin, .dns), Self.outcome(apple, .dns)])
                == ["no_resolver", "no_resolver", "no_resolver"])
        // Only addresses besides it: nothing tells which.
        #expect(
            causes([Self.outcome(origin, .dns), Self.outcome("http://127.0.0.1:9/a/v1/x", .connect), Self.outcome("http://[::1]:9/g", nil)])
                == ["undetermined", nil, nil])
        // A configured service name that does not resolve while the link domain's does.
        #expect(causes([Self.outcome(origin, nil), Self.outcome(apple, .dns)]) == [nil, "no_record"])

        let step = DNSDiagnosis.of([Self.outcome(origin, .dns), Self.outcome(apple, nil)], linkHost: "links.example.com")[0]!.nextStep
        #expect(step.contains("links.example.com has no DNS record") && step.contains("A or AAAA record"))
        let resolver = DNSDiagnosis.of([Self.outcome(origin, .dns), Self.outcome(apple, .dns)], linkHost: "links.example.com")[0]!.nextStep
        #expect(resolver.contains("cannot resolve names at all") && resolver.contains("app-site-association.cdn-apple.com"))
        let service = DNSDiagnosis.of([Self.outcome(origin, nil), Self.outcome(apple, .dns)], linkHost: "links.example.com")[1]!.nextStep
        #expect(service.contains("--apple-cdn-url"))
    }

    /// The checks of `nowhere.invalid` with Apple's CDN at `appleBase`: the origin's reason.
    private static func originReason(appleBase: String) throws -> (origin: JSONValue?, apple: JSONValue?) {
        let service = try TestService { configuration in
            configuration.outbound.appleCDNBase = OutboundBase(appleBase)!
            configuration.outbound.timeout = .seconds(5)
        }
        defer { service.close() }
        let fixture = try Fixture(service)
        try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"nowhere.invalid"}"#))
        let health = try Fixture.expect(200, service.request("POST", "/v1/domains/nowhere.invalid/checks", key: fixture.key)).json
        let checks = health["checks"]?.arrayValue ?? []
        let origin = checks.first { $0["check"] == .string("origin") }
        let apple = checks.first { $0["check"] == .string("apple_cdn") }
        return (origin?["detail"]?["aasa"]?["reason"], apple?["detail"]?["reason"])
    }

    @Test func aLinkDomainWithoutARecordIsToldFromAServerWithoutDNS() throws {
        // Apple's CDN named `localhost` (closed port): that name resolves, so nowhere.invalid has no record.
        let noRecord = try Self.originReason(appleBase: "http://localhost:9/a/v1/")
        #expect(noRecord.origin?["kind"] == .string("dns"))
        #expect(noRecord.origin?["cause"] == .string("no_record"), "\(String(describing: noRecord.origin))")
        #expect(noRecord.origin?["nextStep"]?.stringValue?.contains("Add an A or AAAA record") == true)
        #expect(noRecord.apple?["kind"] == .string("connect"))
        #expect(noRecord.apple?["cause"] == nil)

        // Apple's CDN named by a name that cannot resolve either: this server is the one that cannot resolve.
        let noResolver = try Self.originReason(appleBase: "http://cdn.invalid/a/v1/")
        #expect(noResolver.origin?["cause"] == .string("no_resolver"), "\(String(describing: noResolver.origin))")
        #expect(noResolver.origin?["nextStep"]?.stringValue?.contains("cannot resolve names at all") == true)
        #expect(noResolver.apple?["cause"] == .string("no_resolver"))
        #expect(noResolver.apple?["nextStep"]?.stringValue?.contains("cannot resolve cdn.invalid") == true)
    }
}
