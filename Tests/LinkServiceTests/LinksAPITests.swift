import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Links API")
struct LinksAPITests {
    /// The pointers of a 422's errors.
    private static func pointers(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
        return try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    private static func create(_ fixture: Fixture, _ members: String) throws -> TestResponse {
        try fixture.postLink(#"{"domain":"\#(fixture.host)"\#(members)}"#)
    }

    @Test func createsWithAGivenOrAGeneratedSlug() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let given = try Fixture.expect(
                201, Self.create(fixture, #","slug":"spring/24","url":"https://www.example.com/spring","name":"Spring""#))
            let id = try #require(try given.json["id"]?.stringValue)
            #expect(given.headers["Location"] == "/v1/links/\(id)")
            #expect(given.headers["ETag"] != nil)
            #expect(try given.json["shortLink"]?.stringValue == "https://links.example.com/spring/24")
            #expect(try given.json["url"]?.stringValue == "https://www.example.com/spring")
            #expect(try given.json["tags"] == .array([]))
            #expect(try given.json["clicks"] == .number("0"), "every link counts its taps")

            // Links to apps stand on a domain without links to web pages (docs/LINKS.md, "The link space").
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"apps.example.com"}"#))
            let generated = try fixture.createLink(
                """
                {"domain":"apps.example.com","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42,"tab":"reviews"}},
                 "campaign":{"source":"newsletter","campaign":"spring24"},"tags":["spring","mail"],
                 "preview":{"title":"Spring","imageUrl":"https://cdn.example.com/s.png"},"fallbacks":{"desktop":"https://www.example.com/d"},
                 "expiresAt":"2030-01-01T00:00:00+01:00","maxClicks":100,"data":{"coupon":"SPRING","nested":{"a":[1,2]}}}
                """)
            let slug = try #require(try generated.json["slug"]?.stringValue)
            #expect(slug.count == 7)
            #expect(slug.utf8.allSatisfy { LinkSlug.alphabet.contains($0) })
            #expect(try generated.json["destination"]?["params"]?["id"] == .number("42"))
            #expect(try generated.json["campaign"]?["campaign"]?.stringValue == "spring24")
            #expect(try generated.json["expiresAt"]?.stringValue == "2029-12-31T23:00:00.000Z")
            #expect(try generated.json["data"]?["nested"]?["a"] == .array([.number("1"), .number("2")]))
            #expect(try generated.json["clicks"] == .number("0"))
            let read = try Fixture.expect(
                200, service.request("GET", "/v1/links/\(try generated.json["id"]!.stringValue!)", key: fixture.key))
            #expect(try read.json == generated.json)

            // The domain decides the length of generated slugs.
            let domain = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains", key: fixture.key,
                    json: #"{"hostname":"go.example.com","linkSlugLength":12}"#))
            #expect(try domain.json["linkSlugLength"] == .number("12"))
            let long = try fixture.createLink(#"{"domain":"go.example.com","url":"https://www.example.com"}"#)
            #expect(try long.json["slug"]?.stringValue?.count == 12)
            let tooShort = try service.request("PATCH", "/v1/domains/go.example.com", key: fixture.key, json: #"{"linkSlugLength":3}"#)
            #expect(try Self.pointers(tooShort) == ["/linkSlugLength"])
        }
    }

    @Test func destinationsAreCheckedAsLinksBuildChecksThem() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let app = fixture.iosApp
            #expect(
                try Self.pointers(Self.create(fixture, #","app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":0}}"#))
                    == ["/destination/params/id"])
            #expect(
                try Self.pointers(Self.create(fixture, #","app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":"x"}}"#))
                    == ["/destination/params/id"])
            #expect(
                try Self.pointers(Self.create(fixture, #","app":"\#(app)","destination":{"type":"widgetDetail","params":{}}"#))
                    == ["/destination/params/id"])
            #expect(
                try Self.pointers(Self.create(fixture, #","app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":1,"zz":1}}"#))
                    == ["/destination/params/zz"])
            #expect(try Self.pointers(Self.create(fixture, #","app":"\#(app)","destination":{"type":"nothing"}"#)) == ["/destination/type"])
            // links/build answers the same parameters alike.
            let build = try service.request(
                "POST", "/v1/links/build", key: fixture.key,
                json: #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":0}}}"#)
            #expect(try Self.pointers(build) == ["/destination/params/id"])
            // An app of another workspace is no app here.
            let other = try Fixture(service, workspace: "other", host: "other.example.com")
            #expect(
                try Self.pointers(
                    Self.create(fixture, #","app":"\#(other.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}"#))
                    == ["/app"])
            #expect(try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(
        "an app's destination or a web page, exactly one",
        arguments: [
            (#","url":"https://www.example.com","app":"$APP","destination":{"type":"widgetDetail","params":{"id":1}}"#, "/url"),
            ("", "/url"),
            (#","app":"$APP""#, "/destination"),
            (#","destination":{"type":"widgetDetail","params":{"id":1}}"#, "/app"),
            (#","url":"http://www.example.com""#, "/url"),
            (#","url":"https://www.example.com","slug":"v1/links""#, "/slug"),
            (#","url":"https://www.example.com","slug":".well-known""#, "/slug"),
            (#","url":"https://www.example.com","slug":"console""#, "/slug"),
            (#","url":"https://www.example.com","slug":"a//b""#, "/slug"),
            (#","url":"https://www.example.com","slug":"a/../b""#, "/slug"),
            (#","url":"https://www.example.com","slug":"a b""#, "/slug"),
            (#","url":"https://www.example.com","slug":"é""#, "/slug"),
            (#","url":"https://www.example.com","tags":["\#(String(repeating: "t", count: 51))"]"#, "/tags/0"),
            (#","url":"https://www.example.com","tags":[\#((0...20).map { "\"t\($0)\"" }.joined(separator: ","))]"#, "/tags"),
            (#","url":"https://www.example.com","maxClicks":0"#, "/maxClicks"),
            (#","url":"https://www.example.com","expiresAt":"tomorrow""#, "/expiresAt"),
            (#","url":"https://www.example.com","expiresAt":"2030-02-30T00:00:00Z""#, "/expiresAt"), // not rolled over to March
            (#","url":"https://www.example.com","expiresAt":"2030-01-01T00:00:00""#, "/expiresAt"), // no zone
            (#","url":"https://www.example.com","fallbacks":{"ios":"javascript:alert(1)"}"#, "/fallbacks/ios"),
            (#","url":"https://www.example.com","fallbacks":{"windows":"https://www.example.com"}"#, "/fallbacks/windows"),
            (#","url":"https://www.example.com","campaign":{"source":7}"#, "/campaign/source"),
            (#","url":"https://www.example.com","preview":{"imageUrl":"ftp://x"}"#, "/preview/imageUrl"),
            (#","url":"https://www.example.com","data":[1]"#, "/data"),
            (#","url":"https://www.example.com","data":{"blob":"\#(String(repeating: "x", count: 4090))"}"#, "/data"),
            (#","url":"https://www.example.com","nmae":"typo""#, "/nmae"),
        ])
    func badBodiesAre422AtTheirPointer(members: String, pointer: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let response = try Self.create(fixture, members.replacingOccurrences(of: "$APP", with: fixture.iosApp))
            #expect(try Self.pointers(response).contains(pointer), "\(response.text)")
            #expect(try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func dataUpTo4KBIsKept() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // {"blob":"…"}: 11 bytes around the text.
            let data = #"{"blob":"\#(String(repeating: "x", count: 4096 - 11))"}"#
            let created = try Fixture.expect(201, Self.create(fixture, #","url":"https://www.example.com","data":\#(data)"#))
            #expect(try created.json["data"]?.serialized == data)
        }
    }

    @Test func slugsAreUniquePerDomainAndDomainsPerWorkspace() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            #expect(try Self.create(fixture, #","slug":"Spring","url":"https://www.example.com""#).status == 201)
            #expect(try Self.create(fixture, #","slug":"Spring","url":"https://www.example.com/other""#).status == 409)
            // Compared exactly: another case is another link.
            #expect(try Self.create(fixture, #","slug":"spring","url":"https://www.example.com""#).status == 201)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"go.example.com"}"#))
            #expect(
                try fixture.postLink(#"{"domain":"go.example.com","slug":"Spring","url":"https://www.example.com"}"#).status == 201)

            let other = try Fixture(service, workspace: "other", host: "other.example.com")
            let foreign = try service.request(
                "POST", "/v1/links?acknowledgeMoves=true", key: other.key,
                json: #"{"domain":"links.example.com","slug":"x","url":"https://www.example.com"}"#)
            #expect(try Self.pointers(foreign) == ["/domain"])
            let unknown = try service.request(
                "POST", "/v1/links?acknowledgeMoves=true", key: other.key,
                json: #"{"domain":"nowhere.example.com","url":"https://www.example.com"}"#)
            #expect(try Self.pointers(unknown) == ["/domain"])

            let mine = try #require(
                try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.first?["id"]?.stringValue)
            #expect(try service.request("GET", "/v1/links/\(mine)", key: other.key).status == 404)
            #expect(try service.request("PATCH", "/v1/links/\(mine)", key: other.key, json: #"{"name":"x"}"#).status == 404)
            #expect(try service.request("DELETE", "/v1/links/\(mine)", key: other.key).status == 404)
            #expect(try service.request("GET", "/v1/links/not-a-uuid", key: fixture.key).status == 404)
            #expect(try service.request("GET", "/v1/links", key: other.key).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func listsFilterSearchAndPage() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"go.example.com"}"#))
            // Links to web pages on a domain of their own: a domain's links to apps would open the app for them.
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"web.example.com"}"#))
            let typed = #""app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}"#
            for body in [
                #"{"domain":"web.example.com","slug":"a1","url":"https://www.example.com","tags":["spring"],"name":"Spring sale 50%"}"#,
                #"{"domain":"links.example.com","slug":"a2",\#(typed),"tags":["spring","mail"],"campaign":{"campaign":"spring24"}}"#,
                #"{"domain":"web.example.com","slug":"b_1","url":"https://www.example.com","campaign":{"campaign":"spring24"},"name":"Winter"}"#,
                #"{"domain":"go.example.com","slug":"b21",\#(typed),"name":"5000 widgets"}"#,
            ] {
                try fixture.createLink(body)
            }
            func slugs(_ query: String) throws -> [String] {
                let response = try Fixture.expect(200, service.request("GET", "/v1/links?" + query, key: fixture.key))
                return try response.json["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } ?? []
            }
            #expect(try slugs("") == ["a1", "a2", "b_1", "b21"])
            #expect(try slugs("domain=go.example.com") == ["b21"])
            #expect(try slugs("domain=GO.example.com") == ["b21"])
            #expect(try slugs("tag=spring") == ["a1", "a2"])
            #expect(try slugs("tag=mail") == ["a2"])
            #expect(try slugs("campaign=spring24") == ["a2", "b_1"])
            #expect(try slugs("destinationType=widgetDetail") == ["a2", "b21"])
            #expect(try slugs("domain=web.example.com&destinationType=widgetDetail") == [])
            #expect(try slugs("q=SPRING") == ["a1"])
            #expect(try slugs("q=b") == ["b_1", "b21"])
            // `_` and `%` are taken literally, not as patterns.
            #expect(try slugs("q=b_") == ["b_1"])
            #expect(try slugs("q=50%25") == ["a1"])
            #expect(try slugs("q=%5C") == [])
            #expect(try service.request("GET", "/v1/links?tag=" + String(repeating: "t", count: 51), key: fixture.key).status == 400)

            let first = try Fixture.expect(200, service.request("GET", "/v1/links?limit=3", key: fixture.key))
            #expect(try first.json["items"]?.arrayValue?.count == 3)
            let next = try #require(try first.json["next"]?.stringValue)
            let second = try Fixture.expect(200, service.request("GET", next, key: fixture.key))
            #expect(try second.json["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["b21"])
            #expect(try second.json["next"] == .null)
        }
    }

    @Test func patchKeepsWhatItDoesNotSendAndHonoursIfMatch() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let created = try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    """
                    ,"slug":"keep","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":7}},
                     "tags":["a"],"campaign":{"source":"mail"},"data":{"k":1},"name":"Before"
                    """))
            let id = try created.json["id"]!.stringValue!
            let etag = try #require(created.headers["ETag"])
            let updated = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/links/\(id)", key: fixture.key,
                    json: #"{"name":"After","maxClicks":5}"#, headers: [("If-Match", etag)]))
            #expect(updated.headers["ETag"] != etag)
            for key in ["id", "slug", "app", "destination", "tags", "campaign", "data", "fallbacks", "preview", "createdAt"] {
                #expect(try updated.json[key] == created.json[key], "\(key)")
            }
            #expect(try updated.json["name"]?.stringValue == "After")

            // A stale ETag is refused, and so is a write that would leave both targets.
            let stale = try service.request(
                "PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"name":"Stale"}"#, headers: [("If-Match", etag)])
            #expect(stale.status == 412)
            #expect(
                try Self.pointers(
                    service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"url":"https://www.example.com"}"#))
                    == ["/url"])
            #expect(
                try Self.pointers(
                    service.request(
                        "PATCH", "/v1/links/\(id)", key: fixture.key,
                        json: #"{"destination":{"type":"widgetDetail","params":{"id":-1}}}"#)) == ["/destination/params/id"])
            // Switching to a web page clears the app's destination; null clears optional members.
            let switched = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/links/\(id)", key: fixture.key,
                    json: #"{"app":null,"destination":null,"url":"https://www.example.com/w","data":null,"tags":null,"slug":"kept"}"#))
            #expect(try switched.json["app"] == nil)
            #expect(try switched.json["destination"] == nil)
            #expect(try switched.json["data"] == nil)
            #expect(try switched.json["tags"] == .array([]))
            #expect(try switched.json["url"]?.stringValue == "https://www.example.com/w")
            #expect(try switched.json["shortLink"]?.stringValue == "https://links.example.com/kept")
            #expect(try switched.json["name"]?.stringValue == "After")
            // A slug another link has is a conflict.
            try Fixture.expect(201, Self.create(fixture, #","slug":"taken","url":"https://www.example.com""#))
            #expect(try service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"slug":"taken"}"#).status == 409)
        }
    }

    @Test func deletesAndAudits() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let created = try Fixture.expect(201, Self.create(fixture, #","slug":"gone","url":"https://www.example.com""#))
            let id = try created.json["id"]!.stringValue!
            let updated = try Fixture.expect(200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"name":"N"}"#))
            #expect(
                try service.request("DELETE", "/v1/links/\(id)", key: fixture.key, headers: [("If-Match", created.headers["ETag"]!)]).status
                    == 412)
            #expect(
                try service.request("DELETE", "/v1/links/\(id)", key: fixture.key, headers: [("If-Match", updated.headers["ETag"]!)]).status
                    == 204)
            #expect(try service.request("GET", "/v1/links/\(id)", key: fixture.key).status == 404)
            // The slug is free again.
            #expect(try Self.create(fixture, #","slug":"gone","url":"https://www.example.com""#).status == 201)

            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=link", key: fixture.key))
            let entries = try #require(try audit.json["items"]?.arrayValue).filter { $0["resourceId"]?.stringValue == id }
            #expect(Set(entries.compactMap { $0["action"]?.stringValue }) == ["create", "update", "delete"])
            let update = try #require(entries.first { $0["action"]?.stringValue == "update" })
            #expect(update["before"]?["name"] == nil)
            #expect(update["after"]?["name"]?.stringValue == "N")
            #expect(entries.first { $0["action"]?.stringValue == "delete" }?["before"]?["slug"]?.stringValue == "gone")
        }
    }

    /// An app or a destination type that links lead to cannot be deleted; the refusal names the links.
    @Test func appsAndTypesLinksLeadToStay() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps/\(fixture.iosApp)/destinations", key: fixture.key,
                    json: #"{"name":"promo","params":{}}"#))
            let link = try Fixture.expect(
                201, Self.create(fixture, #","slug":"p1","app":"\#(fixture.iosApp)","destination":{"type":"promo","params":{}}"#))
            let refused = try Fixture.expect(
                409, service.request("DELETE", "/v1/apps/\(fixture.iosApp)/destinations/promo", key: fixture.key))
            #expect(
                try refused.json["detail"]?.stringValue
                    == "'promo' is the destination of 1 link (links.example.com/p1); delete or change the links first.")
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(try link.json["id"]!.stringValue!)", key: fixture.key))
            try Fixture.expect(204, service.request("DELETE", "/v1/apps/\(fixture.iosApp)/destinations/promo", key: fixture.key))

            // An app no rule names, opened by links on a domain without rules.
            let app = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: fixture.key,
                    json: """
                        {"platform":"ios","name":"Promo","teamId":"ABCDE12345","bundleId":"com.example.promo"}
                        """)
            ).json["id"]!.stringValue!
            try Fixture.expect(
                201, service.request("POST", "/v1/apps/\(app)/destinations", key: fixture.key, json: #"{"name":"home","params":{}}"#))
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"promo.example.com"}"#))
            for slug in ["a", "b", "c", "d"] {
                try fixture.createLink(
                    """
                    {"domain":"promo.example.com","slug":"\(slug)","app":"\(app)","destination":{"type":"home","params":{}}}
                    """)
            }
            let kept = try Fixture.expect(409, service.request("DELETE", "/v1/apps/\(app)", key: fixture.key))
            #expect(
                try kept.json["detail"]?.stringValue
                    == "The app is opened by 4 links (promo.example.com/a, promo.example.com/b, promo.example.com/c, …); delete or change the links first."
            )
            try Fixture.expect(200, service.request("GET", "/v1/apps/\(app)", key: fixture.key))
        }
    }
}
