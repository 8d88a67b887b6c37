import Foundation
import LinkKit
@testable import LinkService
import Testing

/// One declaration of a resource's members gives its answer and its schema, in the same order.
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
}
