import Testing
import Foundation
@testable import LinkKit

/// The worked cases of `aasa-examples.json` (docs/aasa-semantics.md §1), kept in the hidden `.fixtures` folder so
/// SwiftPM does not ask for it to be declared as a resource.
struct ExampleCase: CustomTestStringConvertible, Sendable {
    let id: String
    let aasa: JSONValue
    let url: String
    let appID: String?
    let detailIndex: Int?
    let componentIndex: Int?

    var testDescription: String { id }

    static let all: [ExampleCase] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(".fixtures/aasa-examples.json")
        let text = try! String(contentsOf: file, encoding: .utf8)
        return try! JSONValue.parse(text).arrayValue!.compactMap { item in
            guard let aasa = item["aasa"], let url = item["url"]?.stringValue, let expect = item["expect"] else { return nil }
            return ExampleCase(
                id: item["id"]!.stringValue!, aasa: aasa, url: url, appID: expect["appID"]?.stringValue,
                detailIndex: expect["detailIndex"].flatMap(Self.int), componentIndex: expect["componentIndex"].flatMap(Self.int)
            )
        }
    }()

    static func int(_ value: JSONValue) -> Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }
}
