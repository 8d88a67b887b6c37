import Foundation
import LinkKit
@testable import LinkService
import Synchronization
import Testing
import TestSupport

@Suite("Teams API")
struct TeamsAPITests {
    @Test func createReadUpdateDelete() throws {
        try TestService.with { service in
            let key = try service.key()
            let created = try service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#)
            #expect(created.status == 201)
            #expect(created.headers["Location"] == "/v1/teams/ABCDE12345")
            let etag = try #require(created.headers["ETag"])

            let read = try service.request("GET", "/v1/teams/ABCDE12345", key: key)
            #expect(read.status == 200)
            #expect(read.headers["ETag"] == etag)
            #expect(try read.json["name"]?.stringValue == "Acme")

            let updated = try service.request(
                "PATCH", "/v1/teams/ABCDE12345", key: key, json: #"{"name":"Acme Inc"}"#, headers: [("If-Match", etag)])
            #expect(updated.status == 200)
            #expect(updated.headers["ETag"] != etag)
            #expect(try updated.json["name"]?.stringValue == "Acme Inc")

            let stale = try service.request("DELETE", "/v1/teams/ABCDE12345", key: key, headers: [("If-Match", etag)])
            #expect(stale.status == 412)
            let deleted = try service.request("DELETE", "/v1/teams/ABCDE12345", key: key, headers: [("If-Match", updated.headers["ETag"]!)])
            #expect(deleted.status == 204)
            #expect(try service.request("GET", "/v1/teams/ABCDE12345", key: key).status == 404)
        }
    }

    @Test(
        "validation errors carry pointers",
        arguments: [
            (#"{"teamId":"abc","name":"A"}"#, "/teamId"),
            (#"{"name":"A"}"#, "/teamId"),
            (#"{"teamId":"ABCDE12345"}"#, "/name"),
            (#"{"teamId":"ABCDE12345","name":7}"#, "/name"),
            (#"{"teamId":"ABCDE12345","name":"A","nmae":"typo"}"#, "/nmae"),
        ])
    func validation(body: String, pointer: String) throws {
        try TestService.with { service in
            let response = try service.request("POST", "/v1/teams", key: try service.key(), json: body)
            #expect(response.status == 422)
            let errors = try #require(try response.json["errors"]?.arrayValue)
            #expect(errors.contains { $0["pointer"]?.stringValue == pointer })
            #expect(try service.request("GET", "/v1/teams", key: try service.key()).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func badBodiesAre4xx() throws {
        try TestService.with { service in
            let key = try service.key()
            #expect(try service.request("POST", "/v1/teams", key: key, json: "{").status == 400)
            #expect(try service.request("POST", "/v1/teams", key: key, json: "").status == 400)
            #expect(try service.request("POST", "/v1/teams", key: key, json: "[]").status == 422)
            let plain = try service.request("POST", "/v1/teams", key: key, headers: [("Content-Type", "text/plain")])
            #expect(plain.status == 415)
        }
    }

    @Test func duplicatesConflict() throws {
        try TestService.with { service in
            let key = try service.key()
            let body = #"{"teamId":"ABCDE12345","name":"A"}"#
            #expect(try service.request("POST", "/v1/teams", key: key, json: body).status == 201)
            #expect(try service.request("POST", "/v1/teams", key: key, json: body).status == 409)
            // Another workspace may register the same team.
            #expect(try service.request("POST", "/v1/teams", key: try service.key(workspace: "other"), json: body).status == 201)
        }
    }

    @Test func otherWorkspacesSeeNothing() throws {
        try TestService.with { service in
            let acme = try service.key(workspace: "acme")
            let other = try service.key(workspace: "other")
            #expect(try service.request("POST", "/v1/teams", key: acme, json: #"{"teamId":"ABCDE12345","name":"A"}"#).status == 201)
            #expect(try service.request("GET", "/v1/teams/ABCDE12345", key: other).status == 404)
            #expect(try service.request("PATCH", "/v1/teams/ABCDE12345", key: other, json: #"{"name":"x"}"#).status == 404)
            #expect(try service.request("DELETE", "/v1/teams/ABCDE12345", key: other).status == 404)
            #expect(try service.request("GET", "/v1/teams", key: other).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func concurrentPatchesWithTheSameETagOneWins() throws {
        try TestService.with { service in
            let key = try service.key()
            let created = try service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"A"}"#)
            let etag = try #require(created.headers["ETag"])
            let statuses = StatusBox()
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let response = try? service.request(
                    "PATCH", "/v1/teams/ABCDE12345", key: key, json: #"{"name":"writer \#(index)"}"#, headers: [("If-Match", etag)])
                statuses.append(response?.status ?? -1)
            }
            #expect(statuses.all.filter { $0 == 200 }.count == 1)
            #expect(statuses.all.filter { $0 == 412 }.count == 7)
        }
    }

    @Test func listsArePaginatedInCreationOrder() throws {
        try TestService.with { service in
            let key = try service.key()
            let ids = (0..<7).map { String(format: "ABCDE%05d", $0) }
            for id in ids {
                #expect(try service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"\#(id)","name":"t"}"#).status == 201)
            }
            var seen: [String] = []
            var next: String? = "/v1/teams?limit=3"
            while let path = next {
                let page = try service.request("GET", path, key: key)
                #expect(page.status == 200)
                let json = try page.json
                seen += json["items"]?.arrayValue?.compactMap { $0["teamId"]?.stringValue } ?? []
                next = json["next"]?.stringValue
            }
            #expect(seen == ids)
            #expect(try service.request("GET", "/v1/teams?limit=0", key: key).status == 400)
            #expect(try service.request("GET", "/v1/teams?limit=201", key: key).status == 400)
            #expect(try service.request("GET", "/v1/teams?cursor=garbage", key: key).status == 400)
        }
    }

    @Test func aTeamWithAppsCannotBeDeleted() throws {
        try TestService.with { service in
            let key = try service.key()
            #expect(try service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"A"}"#).status == 201)
            _ = try service.application.pool.withConnection { connection in
                try connection.execute(
                    """
                    INSERT INTO apps (workspace_id, platform, name, team_id, bundle_id)
                    SELECT workspace_id, 'ios', 'App', team_id, 'com.example.app' FROM teams
                    """)
            }
            #expect(try service.request("DELETE", "/v1/teams/ABCDE12345", key: key).status == 409)
        }
    }
}

final class StatusBox: Sendable {
    private let statuses = Mutex<[Int]>([])
    func append(_ status: Int) { statuses.withLock { $0.append(status) } }
    var all: [Int] { statuses.withLock { $0 } }
}
