import Foundation
import Testing
import TestSupport

/// Options of `linkd serve` checked before anything starts.
@Suite("linkd configuration")
struct ConfigurationTests {
    @Test func serveHelpDocumentsCORSOrigins() throws {
        let help = try LinkdProcess.run(["serve", "--help"])
        #expect(help.stdout.contains("--cors-origins"))
        #expect(help.stdout.contains("LINKD_CORS_ORIGINS"))
        for option in [
            "--connection-limit", "LINKD_CONNECTION_LIMIT", "--header-timeout", "LINKD_HEADER_TIMEOUT",
            "--body-timeout", "LINKD_BODY_TIMEOUT", "--idle-timeout", "LINKD_IDLE_TIMEOUT", "--console", "LINKD_CONSOLE_DIR",
        ] {
            #expect(help.stdout.contains(option), "\(option)")
        }
    }

    @Test("a malformed CORS origin is a usage error", arguments: ["dash.example.com", "https://dash.example.com/app", "null"])
    func badCORSOriginIsAUsageError(origin: String) throws {
        let result = try LinkdProcess.run(["serve", "--cors-origins", "https://ok.example," + origin, "--listen", "127.0.0.1:0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("CORS origin '\(origin)'"))
    }

    @Test(
        "bad serve settings are usage errors",
        arguments: [
            ["--aasa-max-age", "-1"], ["--aasa-max-age", "soon"], ["--public-resolve", "maybe"], ["--access-log", "verbose"],
            ["--threads", "0"], ["--log-level", "loud"],
            ["--resolve-cache", "-1"], ["--resolve-cache", "lots"], ["--connection-limit", "0"], ["--connection-limit", "many"],
            ["--header-timeout", "-1"], ["--body-timeout", "soon"], ["--idle-timeout", "86401"],
            ["--trusted-proxies", "10.0.0.0/33"], ["--trusted-proxies", "caddy"], ["--api-hostname", "*.example.com"],
            ["--api-hostname", "127.0.0.1"],
        ])
    func badServeSettings(arguments: [String]) throws {
        let result = try LinkdProcess.run(["serve"] + arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(!result.stderr.isEmpty)
    }

    @Test("on/off settings share one vocabulary")
    func switchesShareOneVocabulary() throws {
        for (option, value) in [("--public-resolve", "verbose"), ("--access-log", "maybe")] {
            let result = try LinkdProcess.run(["serve", option, value])
            #expect(result.status == 2)
            #expect(result.stderr.contains("must be on or off (true or false), not '\(value)'"), "\(result.stderr)")
        }
    }
}
