import Foundation
import LinkKit

/// `linkd codegen`: an app's generated router (or fixtures), fetched from a running linkd with a read key.
enum CodegenCommand: Command {
    static let name = "codegen"
    static let summary =
        "generate an app's router (codegen --app ID --language \(RouterLanguage.allCases.map(\.rawValue).joined(separator: "|")))"
    static let help = """
        Usage: linkd codegen --app ID --language \(CodegenLanguage.allCases.map(\.rawValue).joined(separator: "|")) [--package NAME] [--out FILE] [options]

        Fetches GET /v1/apps/ID/codegen/LANGUAGE from a running linkd and writes it to FILE (stdout by
        default): one self-contained source file with the app's destinations as a type, LinkRouter.route
        and build, and the rules' ETag in its header; `fixtures` gives the URLs and destinations the app's
        CI checks its router with (docs/CODEGEN.md).

          --app ID               the app (required)
          --language LANGUAGE    \(CodegenLanguage.listed) (required)
          --package NAME         the package of the Kotlin files (kotlin, kotlin-glue), e.g. com.example.app;
                                 by default an Android app's package name, none for an iOS app's
          --out FILE             write there instead of stdout
        \(APIClient.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "bench-source" { return benchSource(Array(arguments.dropFirst())) }
        let app: String
        let language: CodegenLanguage
        let client: APIClient
        let out: String?
        let kotlinPackage: String?
        do {
            let parsed = try Arguments(arguments, valued: APIClient.valuedOptions.union(["app", "language", "out", "package"]))
            guard parsed.positionals.isEmpty else {
                throw Arguments.UsageError(description: "unexpected argument '\(parsed.positionals[0])'")
            }
            guard let id = parsed.value("app"), UUID(uuidString: id) != nil else {
                throw Arguments.UsageError(description: "--app ID (a UUID) is required")
            }
            guard let chosen = parsed.value("language").flatMap(CodegenLanguage.init(rawValue:)) else {
                throw Arguments.UsageError(description: "--language must be \(CodegenLanguage.listed)")
            }
            app = id.lowercased()
            language = chosen
            out = parsed.value("out")
            if let name = parsed.value("package") {
                do throws(LinkKitError) { kotlinPackage = try AndroidPackageName(name).rawValue } catch {
                    throw Arguments.UsageError(description: "--package: \(error.message)")
                }
            } else {
                kotlinPackage = nil
            }
            client = try APIClient(parsed)
        } catch {
            Output.err("linkd codegen: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        do {
            let answer = try client.send(
                "GET", "/v1/apps/\(app)/codegen/\(language.rawValue)" + (kotlinPackage.map { "?package=" + $0 } ?? ""), json: nil)
            guard answer.status == 200 else {
                let detail = String(decoding: answer.body, as: UTF8.self)
                Output.err("linkd codegen: the server answered \(answer.status): \(detail)")
                return ExitStatus.failure
            }
            if let out {
                try Data(answer.body).write(to: URL(fileURLWithPath: out))
            } else {
                FileHandle.standardOutput.write(Data(answer.body))
            }
            return ExitStatus.success
        } catch {
            Output.err("linkd codegen: \(error)")
            return ExitStatus.failure
        }
    }

    /// Hidden, for bench/router: the Swift router of a synthetic domain of `--rules N` rules
    /// (`/section<i>/{id}` to `widgetDetail(id:)`, an exclusion first), made without a server.
    static func benchSource(_ arguments: [String]) -> Int32 {
        guard let parsed = try? Arguments(arguments, valued: ["rules"]), let count = Int(parsed.value("rules") ?? "10"), count > 0 else {
            Output.err("usage: linkd codegen bench-source [--rules N]")
            return ExitStatus.usage
        }
        let destination = DestinationType(name: "widgetDetail", parameters: [ParameterSpec(name: "id", kind: .int(min: 1, max: nil))])
        let app = DomainApp(id: "bench", platform: .ios, identifier: "ABCDE12345.com.example.bench", destinations: [destination])
        var rules = [LinkRule(id: "x", apps: ["bench"], path: .raw("/private/*"), exclude: true)]
        for index in 0..<count {
            // (A template is always valid text: these cannot fail.)
            rules.append(
                LinkRule(
                    id: "r\(index)", apps: ["bench"], path: try! RulePattern("/section\(index)/{id}"),
                    destination: DestinationBinding(type: "widgetDetail")))
        }
        let compiled = CompiledDomain(settings: DomainSettings(hostname: "links.example.com"), apps: [app], rules: rules)
        let table = RouterTable(
            appID: "bench", platform: .ios, scheme: "bench", destinations: [destination],
            domains: [RouterTable.Domain(hostname: "links.example.com", compiled: compiled)], schemeDomain: 0)
        Output.out(RouterSource.source(table, etag: "\"bench\"", language: .swift))
        return ExitStatus.success
    }
}
