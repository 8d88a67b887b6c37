import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    /// The application, built without a database (nothing is started).
    static func application() throws -> Application {
        let configuration = ServiceConfiguration(
            server: ServerConfiguration(), database: try ConnectionParameters("host=/nonexistent dbname=none"),
            migrationsDirectory: migrationsDirectory, migrateOnStart: false
        )
        return try Application(configuration: configuration, logger: .quiet)
    }

    /// The application's router.
    static func routes() throws -> [(method: HTTPMethod, template: String)] {
        try application().router.routes
    }

    /// The document exactly as served.
    static func document() throws -> JSONValue {
        try JSONValue.parse(bytes: application().openAPIDocument)
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// `"GET /v1/teams"` for every operation of the document.
    static func documentedOperations(_ document: JSONValue) -> Set<String> {
        var operations: Set<String> = []
        for path in document["paths"]?.objectMembers ?? [] {
            for member in path.value.objectMembers ?? [] where methods.contains(member.key) {
                operations.insert("\(member.key.uppercased()) \(path.key)")
            }
        }
        return operations
    }

    @Test func everyRouteIsDocumented() throws {
        let routed = Set(try Self.routes().map { "\($0.method.rawValue) \($0.template)" })
        let documented = Self.documentedOperations(try Self.document())
        let undocumented = routed.subtracting(documented).sorted()
        let unrouted = documented.subtracting(routed).sorted()
        #expect(
            undocumented.isEmpty,
            "routes missing from the OpenAPI document (declare each as an Endpoint of its EndpointGroup): \(undocumented)")
        #expect(unrouted.isEmpty, "documented operations no route serves: \(unrouted)")
        #expect(routed.contains("GET /openapi.json"))
        #expect(routed.count > 30)
    }

    @Test func isOpenAPI31WithEveryReferenceResolving() throws {
        let document = try Self.document()
        #expect(document["openapi"]?.stringValue == "3.1.0")
        #expect(document["info"]?["title"]?.stringValue == "linkd")
        #expect(document["info"]?["version"]?.stringValue != nil)
        var references: [String] = []
        Self.collectReferences(document, into: &references)
        #expect(references.count > 100)
        for reference in Set(references) {
            #expect(reference.hasPrefix("#/"), "only local references: \(reference)")
            #expect(Self.resolve(reference, in: document) != nil, "unresolved $ref \(reference)")
        }
    }

    @Test func everyOperationIsDescribed() throws {
        let document = try Self.document()
        var operationIDs: [String] = []
        let tags = Set((document["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        for path in document["paths"]?.objectMembers ?? [] {
            let templateNames = Endpoint.undocumented(.GET, path.key) { _ in Response(status: 204) }.pathParameterNames
            let declared = (path.value["parameters"]?.arrayValue ?? []).filter { $0["in"]?.stringValue == "path" }
            #expect(declared.compactMap { $0["name"]?.stringValue } == templateNames, "path parameters of \(path.key)")
            for parameter in declared {
                #expect(parameter["required"] == .bool(true))
                #expect(
                    parameter["description"]?.stringValue != nil,
                    "\(path.key): describe {\(parameter["name"]?.stringValue ?? "")} in OpenAPIDocument.pathParameters")
            }
            for member in path.value.objectMembers ?? [] where Self.methods.contains(member.key) {
                let operation = member.value
                let label = "\(member.key.uppercased()) \(path.key)"
                operationIDs.append(operation["operationId"]?.stringValue ?? "")
                #expect(operation["summary"]?.stringValue?.isEmpty == false, "\(label) has a summary")
                #expect(operation["security"]?.arrayValue != nil, "\(label) states its security")
                #expect(
                    (operation["tags"]?.arrayValue ?? []).allSatisfy { tags.contains($0.stringValue ?? "") }, "\(label) uses a declared tag"
                )
                let responses = operation["responses"]?.objectMembers ?? []
                // A browser's step (single sign-on's start and callback) succeeds with a redirect.
                #expect(responses.contains { $0.key.hasPrefix("2") || $0.key.hasPrefix("3") }, "\(label) has a success response")
                if let body = operation["requestBody"] {
                    let media = body["content"]?.objectMembers ?? []
                    #expect(!media.isEmpty && media.allSatisfy { $0.value["schema"] != nil }, "\(label) describes its body")
                    for status in ["400", "415", "422"] {
                        #expect(responses.contains { $0.key == status }, "\(label) documents \(status)")
                    }
                }
                // The HTTP layer answers these before any route (Server+Callbacks.swift, docs/CONNECTIONS.md),
                // whatever the operation.
                for status in ["400", "413", "414", "431", "503", "505"] {
                    #expect(responses.contains { $0.key == status }, "\(label) documents \(status)")
                }
                if operation["security"]?.arrayValue?.isEmpty == false {
                    for status in ["401", "503"] {
                        #expect(responses.contains { $0.key == status }, "\(label) documents \(status)")
                    }
                }
                if path.key.contains("{") {
                    #expect(responses.contains { $0.key == "404" }, "\(label) documents 404")
                }
            }
        }
        #expect(operationIDs.allSatisfy { !$0.isEmpty })
        #expect(Set(operationIDs).count == operationIDs.count, "operationIds are unique")
    }

    /// The API rejects unknown members, so every request body schema says so.
    @Test func requestBodiesRejectUnknownMembers() throws {
        let document = try Self.document()
        for path in document["paths"]?.objectMembers ?? [] {
            for member in path.value.objectMembers ?? [] {
                guard let schema = member.value["requestBody"]?["content"]?["application/json"]?["schema"] else { continue }
                for object in Self.objectSchemas(schema, in: document) {
                    #expect(object["additionalProperties"] == .bool(false), "\(member.key.uppercased()) \(path.key): closed body schema")
                }
            }
        }
    }

    /// Generators write a model per component; an inline object inside a union made openapi-python-client import
    /// models it never wrote (`ResolvedDestination`, `LinkBuildAnswer`): union members are references.
    @Test func unionMembersAreComponents() throws {
        let document = try Self.document()
        var found: [String] = []
        Self.visitSchemas(document, path: "") { schema, path in
            for key in ["oneOf", "anyOf"] {
                for (index, member) in (schema[key]?.arrayValue ?? []).enumerated() where member["properties"] != nil {
                    found.append("\(path)/\(key)/\(index)")
                }
            }
        }
        #expect(found.isEmpty, "inline objects in unions (make them components): \(found)")
    }

    /// datamodel-code-generator names an inline object after its member (`preview` → `Preview`, the items of
    /// `problems` → `Problem`) and renames a component of that name (`Preview3`): no inline object is named so.
    @Test func inlineObjectsAreNotNamedLikeComponents() throws {
        let document = try Self.document()
        let components = Set((document["components"]?["schemas"]?.objectMembers ?? []).map(\.key))
        var found: [String] = []
        Self.visitSchemas(document, path: "") { schema, path in
            for property in schema["properties"]?.objectMembers ?? [] {
                let value = property.value
                let candidates =
                    [value, value["items"]].compactMap { $0 }
                    + ["anyOf", "oneOf"].flatMap { value[$0]?.arrayValue ?? [] }
                guard candidates.contains(where: { $0["properties"] != nil }) else { continue }
                let name = property.key.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
                    .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
                let singular = name.hasSuffix("ies") ? name.dropLast(3) + "y" : name.hasSuffix("s") ? String(name.dropLast()) : name
                if components.contains(name) || components.contains(singular) { found.append("\(path)/properties/\(property.key)") }
            }
        }
        #expect(found.isEmpty, "inline objects a generator would name like a component (make them components): \(found)")
    }

    /// Every JSON answer has a schema saying its members, not `{"type": "object"}` and prose.
    @Test func everyJSONAnswerHasASchema() throws {
        let document = try Self.document()
        for path in document["paths"]?.objectMembers ?? [] where path.key != "/openapi.json" { // the document: OpenAPI's own schema
            for member in path.value.objectMembers ?? [] where Self.methods.contains(member.key) {
                for response in member.value["responses"]?.objectMembers ?? [] where response.key.hasPrefix("2") {
                    guard var schema = response.value["content"]?["application/json"]?["schema"] else { continue }
                    while let reference = schema["$ref"]?.stringValue, let target = Self.resolve(reference, in: document) {
                        schema = target
                    }
                    let described =
                        schema["properties"] != nil || schema["items"] != nil || schema["oneOf"] != nil
                        || schema["anyOf"] != nil || schema["allOf"] != nil || schema["additionalProperties"] != nil
                    #expect(described, "\(member.key.uppercased()) \(path.key) \(response.key): the answer's members have no schema")
                }
            }
        }
    }

    @Test func errorResponsesAreProblems() throws {
        let document = try Self.document()
        for response in document["components"]?["responses"]?.objectMembers ?? [] where response.key != "NotModified" {
            #expect(response.value["content"]?["application/problem+json"]?["schema"] != nil, "\(response.key) is a problem")
        }
        let problem = try #require(Self.resolve("#/components/schemas/Problem", in: document))
        #expect(problem["required"] == .array(["type", "title", "status"].map(JSONValue.string)))
    }

    @Test func servedWithoutCredentials() throws {
        try TestService.with { service in
            let response = try service.request("GET", "/openapi.json")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let served = try Self.application().openAPIDocument
            #expect(response.body == served)
        }
    }

    /// The full OpenAPI 3.1 schema check, when `openapi-spec-validator` is installed (`pip install openapi-spec-validator`).
    @Test(.enabled(if: SpecValidator.isAvailable, "python3 with openapi-spec-validator is not installed"))
    func passesOpenAPISpecValidator() throws {
        let output = try SpecValidator.validate(try Self.application().openAPIDocument)
        #expect(output.status == 0, "openapi-spec-validator: \(output.text)")
    }

    // MARK: Helpers

    static func collectReferences(_ value: JSONValue, into references: inout [String]) {
        switch value {
        case .object(let members):
            for member in members {
                if member.key == "$ref", case .string(let reference) = member.value { references.append(reference) }
                collectReferences(member.value, into: &references)
            }
        case .array(let elements):
            for element in elements { collectReferences(element, into: &references) }
        default:
            break
        }
    }

    /// Calls `visit` with every schema object of the document (components, parameters, bodies, answers, nested
    /// schemas) and its JSON pointer.
    static func visitSchemas(_ value: JSONValue, path: String, _ visit: (JSONValue, String) -> Void) {
        switch value {
        case .object(let members):
            if value["type"] != nil || value["oneOf"] != nil || value["anyOf"] != nil || value["properties"] != nil { visit(value, path) }
            for member in members {
                visitSchemas(
                    member.value,
                    path: path + "/" + member.key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"), visit
                )
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { visitSchemas(element, path: "\(path)/\(index)", visit) }
        default:
            break
        }
    }

    /// Resolves a local reference such as `#/components/schemas/Team` (RFC 6901 with `~1` and `~0`).
    static func resolve(_ reference: String, in document: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var current: JSONValue? = document
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object?: current = current?[key]
            case .array(let elements)?: current = Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    /// The object schemas a body schema stands for, following `$ref`, `oneOf` and `anyOf`.
    static func objectSchemas(_ schema: JSONValue, in document: JSONValue) -> [JSONValue] {
        if let reference = schema["$ref"]?.stringValue, let target = resolve(reference, in: document) {
            return objectSchemas(target, in: document)
        }
        if let alternatives = (schema["oneOf"] ?? schema["anyOf"])?.arrayValue {
            return alternatives.flatMap { objectSchemas($0, in: document) }
        }
        return schema["type"] == .string("object") ? [schema] : []
    }
}

/// Runs `openapi-spec-validator` (Python) on a document, when it is installed.
enum SpecValidator {
    static let isAvailable: Bool = (try? python(["-c", "import openapi_spec_validator"]).status == 0) ?? false

    static func validate(_ document: [UInt8]) throws -> (status: Int32, text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-openapi-\(getpid()).json")
        try Data(document).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try python([
            "-c",
            """
            import json, sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
            try:
                validate(json.load(open(sys.argv[1])))
            except OpenAPIValidationError as error:
                print(error); sys.exit(1)
            """, file.path,
        ])
    }

    /// Runs `python3` with `arguments`; returns its exit status and output.
    static func python(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = try Subprocess("python3", arguments, mergeErrors: true)
        let status = try process.wait()
        return (status, process.standardOutput)
    }
}
