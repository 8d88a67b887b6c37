import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Generated routers for destinations, parameters and enum values named after every keyword and reserved member
/// of the three languages and every name the generated files use: each file must compile with its language's own
/// compiler (docs/CODEGEN.md). The names are listed here from the languages' references, independently of
/// the generator's own lists, so a name it forgets fails here.
@Suite(.serialized) struct GeneratedRouterNamesTests {
    static let swift = """
        associatedtype class deinit enum extension fileprivate func import init inout internal let open operator private
        precedencegroup protocol public rethrows static struct subscript typealias var break case catch continue default defer
        do else fallthrough for guard if in repeat return throw switch where while Any as await false is nil self Self super
        throws true try Type Protocol associativity convenience didSet dynamic final get indirect infix lazy left mutating none
        nonmutating optional override postfix precedence prefix required right set some unowned weak willSet actor async
        borrowing consuming copy discard each macro package any nonisolated isolated
        """
    static let kotlin = """
        as break class continue do else false for fun if in interface is null object package return super this throw true try
        typealias typeof val var when while by catch constructor delegate dynamic field file finally get import init param
        property receiver set setparam value where abstract actual annotation companion const crossinline data enum expect
        external final infix inline inner internal lateinit noinline open operator out override private protected public
        reified sealed suspend tailrec vararg it
        """
    static let typescript = """
        break case catch class const continue debugger default delete do else enum export extends false finally for function
        if import in instanceof new null return super switch this throw true try typeof var void while with implements
        interface let package private protected public static yield any boolean constructor declare get module require
        number set string symbol type from of never unknown keyof readonly async await asserts infer unique global namespace
        abstract accessor satisfies bigint object undefined hasOwnProperty toString valueOf prototype
        """
    /// Names the generated files and their runtimes use.
    static let generated = """
        LinkDestination LinkRouter LinkURLs LinkInbox LinkDeferredClaim LinkEvents String Int Int64 Bool Long Boolean Pair List Map Invalid invalid
        Companion values json make requiresSignIn toJSON fromResolveJSON rawValue RawValue allCases AllCases hashValue name
        ordinal valueOf entries equals hashCode copy Value Table Spec Domain Rule Item Capture Param ParamSpec Subject Glob Op
        Form Template JSON Reason URLParts Compiled CompiledRule Android AndroidURL Optional Array Dictionary Result Error
        Swift kotlin java Sendable Equatable CaseIterable Character Unit Nothing Enum print main route build etag table decode
        p0 p1 listOfNotNull emptyList text Array Set URL UUID Foundation FoundationNetworking NSLock UserDefaults URLSession Data
        value claimDomains held receive
        """
    /// Members Swift's `LinkDestination` has for `Hashable`, `Codable` and its reading of values: destinations only
    /// (as parameters too, the Kotlin table's initializer would outgrow the JVM's method size).
    static let swiftMembers = """
        unreadable optional Hashable Codable Encoder Decoder CodingKey DecodingError Key hash hashValue encode storage
        """

    static var names: [String] {
        var seen: Set<String> = []
        return (swift + " " + kotlin + " " + typescript + " " + generated).split(whereSeparator: \.isWhitespace).map(String.init)
            .filter { seen.insert($0).inserted }
    }

    @Test func hostileNamesCompileInEveryLanguage() throws {
        try TestService.with { service in
            let key = try service.key(workspace: "names")
            try Fixture.expect(201, service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#))
            let app = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: key,
                    json: """
                        {"platform":"ios","name":"Names","teamId":"ABCDE12345","bundleId":"com.example.names","customScheme":"names"}
                        """)
            ).json["id"]!.stringValue!
            let names = Self.names
            let kinds = [
                #"{"type":"int"}"#, #"{"type":"string","optional":true}"#, #"{"type":"bool"}"#, #"{"type":"uuid","optional":true}"#,
            ]
            // Every name as a parameter, of every kind, and as an enum's value (with values that are no identifier).
            let values = names + ["_", "-", "__", "1", "a b", "a-b", "a_b", "\u{E9}t\u{E9}", "TYPE", "type_", ""]
            func enumJSON(_ values: [String]) -> String {
                var seen: Set<String> = []
                let distinct = values.filter { !$0.isEmpty && seen.insert($0).inserted }
                return JSONValue.object(["type": .string("enum"), "values": .array(distinct.map(JSONValue.string))]).serialized
            }
            var params = names.enumerated().map { "\"\($1)\":\(kinds[$0 % kinds.count])" }
            // An enum takes at most 200 values.
            params.append("\"kind\":\(enumJSON(Array(values.prefix(150))))")
            params.append("\"kind2\":\(enumJSON(Array(values.dropFirst(150))))")
            // Every name as a destination (without parameters: kotlinc is slow on hundreds of data classes), a few
            // with parameters and an enum.
            var destinations =
                (names + Self.swiftMembers.split(whereSeparator: \.isWhitespace).map(String.init).filter { !names.contains($0) }).map {
                    name in
                    ["Type", "self", "String", "Pair", "type", "Companion"].contains(name)
                        ? #"{"name":"\#(name)","params":{"\#(name)":\#(enumJSON([name, "Type", "_", "1"])),"x":{"type":"int"}}}"#
                        : #"{"name":"\#(name)"}"#
                }
            let small = enumJSON(["Type", "self", "a"])
            destinations.append(#"{"name":"everything","params":{\#(params.joined(separator: ","))}}"#)
            // Nested enum names that meet: `link` + `destination`, `widget` + `detailTab` and `widgetDetail` + `tab`.
            destinations += [
                #"{"name":"link","params":{"destination":\#(small),"router":\#(small)}}"#,
                #"{"name":"widget","params":{"detailTab":\#(small)}}"#,
                #"{"name":"widgetDetail","params":{"tab":\#(small)}}"#,
                #"{"name":"widgetDetailTab"}"#, #"{"name":"WidgetDetailTab"}"#, #"{"name":"type_"}"#,
            ]
            for destination in destinations {
                try Fixture.expect(201, service.request("POST", "/v1/apps/\(app)/destinations", key: key, json: destination))
            }
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"links.example.com"}"#))
            try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/domains/links.example.com/rules", key: key,
                    json: """
                        {"rules":[{"apps":["\(app)"],"path":"/t/{Type}","destination":{"type":"Type","params":{"x":1}}}]}
                        """))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-names-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            func source(_ language: String, _ file: String) throws -> String {
                let text = try Fixture.expect(200, service.request("GET", "/v1/apps/\(app)/codegen/\(language)", key: key)).text
                let path = directory.appendingPathComponent(file).path
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            try GeneratedRouterTests.compile(
                "/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", try source("swift", "Links.swift")])
            try GeneratedRouterTests.compile(
                "/usr/bin/env",
                [
                    "tsc", "--strict", "--noUnusedLocals", "--target", "es2017", "--module", "commonjs",
                    "--noEmit", try source("typescript", "links.ts"),
                ])
            // Debian's kotlinc starts the compiler with 256 MB, too little for this file's table initializer.
            try GeneratedRouterTests.compile(
                "/usr/bin/env",
                [
                    "JAVA_OPTS=-Xmx1g -Xms32M", "kotlinc", "-Werror", "-d", directory.appendingPathComponent("out").path,
                    try source("kotlin", "Links.kt"),
                ])
            if let current = try CurrentKotlin.required() {
                try CurrentKotlin.compile(
                    [try source("kotlin", "Links.kt")], into: directory.appendingPathComponent("current").path, jars: current)
            }
        }
    }
}
