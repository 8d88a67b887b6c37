import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `/v1/members`: list, change a role, remove (sessions end at once); the last owner stays.
@Suite("Members: list, roles, removal")
struct MembersAPITests {
    @Test func listsTheWorkspacesMembersOnly() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let acme = try service.workspaceID()
            let other = try service.workspaceID("globex")
            try service.member("ops@example.com", .owner, of: acme)
            try service.member("ana@example.com", .editor, of: acme)
            try service.member("eve@example.com", .owner, of: other)
            let page = try service.request("GET", "/v1/members", key: admin)
            #expect(page.status == 200, "\(page.text)")
            let items = try #require(try page.json["items"]?.arrayValue)
            #expect(items.compactMap { $0["person"]?["email"]?.stringValue } == ["ops@example.com", "ana@example.com"])
            #expect(items.compactMap { $0["role"]?.stringValue } == ["owner", "editor"])
            // Pages follow the cursor.
            let first = try service.request("GET", "/v1/members?limit=1", key: admin).json
            let next = try #require(first["next"]?.stringValue)
            let second = try service.request("GET", next, key: admin).json
            #expect(second["items"]?.arrayValue?.first?["person"]?["email"]?.stringValue == "ana@example.com")
        }
    }

    @Test func changesARoleButNeverDemotesTheLastOwner() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let acme = try service.workspaceID()
            let owner = try service.member("ops@example.com", .owner, of: acme)
            let ana = try service.member("ana@example.com", .editor, of: acme)

            let changed = try service.request("PATCH", "/v1/members/\(ana.id.canonicalText)", key: admin, json: #"{"role":"viewer"}"#)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try changed.json["role"]?.stringValue == "viewer")
            #expect(try service.role(of: ana.id, in: acme) == .viewer)

            // The last owner: 409, nothing changed.
            let last = try service.request("PATCH", "/v1/members/\(owner.id.canonicalText)", key: admin, json: #"{"role":"admin"}"#)
            #expect(last.status == 409, "\(last.text)")
            #expect(try service.role(of: owner.id, in: acme) == .owner)

            // With a second owner, the first may step down.
            let second = try service.member("bo@example.com", .owner, of: acme)
            #expect(
                try service.request("PATCH", "/v1/members/\(owner.id.canonicalText)", key: admin, json: #"{"role":"admin"}"#).status == 200)
            #expect(try service.request("DELETE", "/v1/members/\(second.id.canonicalText)", key: admin).status == 409)

            // Roles are an owner's to give: an admin-role key changes none (403, the role's refusal).
            let adminRole = try service.key(scope: .admin, role: .admin)
            #expect(
                try service.request("PATCH", "/v1/members/\(ana.id.canonicalText)", key: adminRole, json: #"{"role":"owner"}"#).status
                    == 403)
            // Bad input and strangers.
            let bad = try service.request("PATCH", "/v1/members/\(ana.id.canonicalText)", key: admin, json: #"{"role":"root"}"#)
            #expect(bad.status == 422)
            #expect(bad.text.contains("/role"))
            #expect(
                try service.request("PATCH", "/v1/members/\(UUID().canonicalText)", key: admin, json: #"{"role":"viewer"}"#).status == 404)
            #expect(
                try service.request(
                    "PATCH", "/v1/members/\(ana.id.canonicalText)", key: service.key(scope: .write), json: #"{"role":"viewer"}"#
                ).status == 403)
        }
    }

    /// A removed member's sessions end in the same transaction: the next request with one is refused.
    @Test func removingAMemberEndsTheirSessions() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let acme = try service.workspaceID()
            let other = try service.workspaceID("globex")
            let owner = try service.member("ops@example.com", .owner, of: acme)
            let ana = try service.member("ana@example.com", .editor, of: acme)
            let session = try service.session(of: ana.id, in: acme)
            let bystander = try service.session(of: owner.id, in: acme)

            #expect(try service.request("DELETE", "/v1/members/\(ana.id.canonicalText)", key: admin).status == 204)
            #expect(try service.role(of: ana.id, in: acme) == nil)
            #expect(try !service.isLive(session), "the removed member's session ended")
            #expect(try service.isLive(bystander))
            #expect(try service.request("DELETE", "/v1/members/\(ana.id.canonicalText)", key: admin).status == 404)

            // The last owner stays; another workspace's member is not found.
            #expect(try service.request("DELETE", "/v1/members/\(owner.id.canonicalText)", key: admin).status == 409)
            let stranger = try service.member("eve@example.com", .viewer, of: other)
            #expect(try service.request("DELETE", "/v1/members/\(stranger.id.canonicalText)", key: admin).status == 404)
            #expect(try service.role(of: stranger.id, in: other) == .viewer)
        }
    }
}
