import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// What the hostile-input suites share: a 422 that names its pointers and changes nothing.
extension Fixture {
    /// The workspace's audit entries: every accepted change writes one.
    func auditCount() throws -> Int {
        try Fixture.expect(200, service.request("GET", "/v1/audit?limit=200", key: key)).json["items"]?.arrayValue?.count ?? -1
    }

    /// Sends `body` and expects 422 with an error at each of `pointers`, and no change.
    func expectRefused(
        _ method: String, _ path: String, _ body: String, pointers: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try auditCount()
        let response = try service.request(method, path, key: key, json: body)
        #expect(response.status == 422, "\(method) \(path): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/problem+json", sourceLocation: sourceLocation)
        let reported = try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
        for pointer in pointers {
            #expect(reported.contains(pointer), "\(method) \(path): no error at \(pointer) in \(reported)", sourceLocation: sourceLocation)
        }
        #expect(try auditCount() == before, "\(method) \(path) changed something", sourceLocation: sourceLocation)
    }
}
