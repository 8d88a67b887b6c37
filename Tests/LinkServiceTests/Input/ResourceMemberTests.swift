import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// One declaration of a resource's members gives its answer and its schema, in the same order: every member the
/// component requires is in every answer, `null` included where the component allows it, and an optional member is
/// left out rather than written as `null`.
@Suite("ResourceMember: an answer and its schema from one declaration")
struct ResourceMemberTests {
    static let link = Link(
        id: UUID(), domainID: UUID(), hostname: "links.example.com", slug: "spring", appID: nil, destination: nil,
        webURL: "https://www.example.com/s", fallbacks: .object([]), skipStore: false, campaign: Link.Campaign(),
        tags: ["a"], preview: .object([]), expiresAt: nil, maxClicks: nil, name: nil, data: nil, version: 1,
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 1), sortMicros: 0)

    @Test func aLinkAnswersTheSchemasMembersInOrderWithoutItsAbsentOnes() throws {
        let keys = try #require(Self.link.json.objectMembers).map(\.key)
        let properties = Link.members.map(\.property)
        #expect(keys == properties.map(\.name).filter(keys.contains), "the answer's members in the schema's order")
        #expect(Set(properties.filter(\.isRequired).map(\.name)).isSubset(of: keys), "every required member is answered")
        #expect(!keys.contains("app") && !keys.contains("expiresAt"), "an absent optional member is left out")
        let schema = Link.members.schema(closed: false).json
        #expect(schema["properties"]?.objectMembers?.map(\.key) == properties.map(\.name))
        #expect(schema["required"]?.arrayValue?.compactMap(\.stringValue) == properties.filter(\.isRequired).map(\.name))
    }

    private struct Row: Sendable {
        let name: String
        let note: String?
        let until: String?
    }

    private static let members: [ResourceMember<Row>] = [
        .required("name", Schema.string) { .string($0.name) },
        .optional("note", Schema.string) { .optional($0.note) },
        .nullable("until", Schema.string.nullable) { .optional($0.until) },
    ]

    @Test func anOptionalMemberIsLeftOutWhenNullAndANullableOneWrittenAsNull() throws {
        #expect(Self.members.json(Row(name: "a", note: nil, until: nil)).serialized == #"{"name":"a","until":null}"#)
        #expect(Self.members.json(Row(name: "a", note: "n", until: "u")).serialized == #"{"name":"a","note":"n","until":"u"}"#)
        let schema = Self.members.schema(closed: false, adding: [.required("secret", Schema.string)]).json
        #expect(schema["required"] == .array([.string("name"), .string("until"), .string("secret")]))
        #expect(schema["properties"]?.objectMembers?.map(\.key) == ["name", "note", "until", "secret"])
    }

    /// The members `component` requires that `answer` lacks.
    private static func missing(_ answer: JSONValue, of component: String, in document: JSONValue) -> [String] {
        let required = document["components"]?["schemas"]?[component]?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return required.filter { answer[$0] == nil }
    }

    @Test func everyAnswerHasTheMembersItsComponentRequiresNullIncluded() throws {
        let document = try OpenAPIDocumentTests.document()
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let webhook = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/webhooks", key: fixture.key, json: #"{"url":"http://127.0.0.1:9/h","events":["link.created"]}"#))
            let id = try #require(try webhook.json["id"]?.stringValue)
            try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(id)/test", key: fixture.key))
            func items(_ path: String) throws -> [JSONValue] {
                try #require(try Fixture.expect(200, service.request("GET", path, key: fixture.key)).json["items"]?.arrayValue)
            }
            let answers: [(component: String, answer: JSONValue)] = [
                ("Team", try Fixture.expect(200, service.request("GET", "/v1/teams/ABCDE12345", key: fixture.key)).json),
                ("Webhook", try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(id)", key: fixture.key)).json),
                ("CreatedWebhook", try webhook.json),
                ("WebhookDelivery", try #require(try items("/v1/webhooks/\(id)/deliveries").first)),
                ("AuditEntry", try #require(try items("/v1/audit").first)),
                ("APIKey", try #require(try items("/v1/keys").first)),
                ("Destination", try #require(try items("/v1/apps/\(fixture.iosApp)/destinations").first)),
                ("AssociationVersion", try #require(try items("/v1/domains/\(fixture.host)/association/versions").first)),
            ]
            for (component, answer) in answers {
                #expect(Self.missing(answer, of: component, in: document).isEmpty, "\(component): \(answer.serialized)")
            }
            // The members written as null rather than left out.
            #expect(try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(id)", key: fixture.key)).json["disabledAt"] == .null)
            #expect(try items("/v1/webhooks/\(id)/deliveries").first?["deliveredAt"] == .null)
        }
    }
}
