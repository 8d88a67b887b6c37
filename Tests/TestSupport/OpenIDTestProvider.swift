import Foundation
import Glibc

/// A real OpenID Connect provider on 127.0.0.1 (`OpenIDProvider/oidc_provider.py`), its keys and tokens made with
/// Authlib (PyPI, installed by scripts/install-deps in `.build/Authlib-venv`): discovery, JWKS (an RSA and a P-256
/// key), the code flow with PKCE, and tokens minted as a test asks (`mint`) to cross-check the verifier.
public final class OpenIDTestProvider: @unchecked Sendable {
    // @unchecked: every property is a `let` set in `init`; the process is `Sendable`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let script = directory.appendingPathComponent("OpenIDProvider/oidc_provider.py").path
    static let python = directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/Authlib-venv/bin/python3").path

    public let clientID: String
    public let clientSecret: String
    public let port: Int
    private let process: Subprocess

    public init(clientID: String = "linkd-test", clientSecret: String = "s3cret: with + and /") throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestFailure("no \(Self.python): run scripts/install-deps")
        }
        self.clientID = clientID
        self.clientSecret = clientSecret
        process = try Subprocess(Self.python, [Self.script, clientID, clientSecret])
        let words = try process.firstLine(startingWith: "listening ").split(separator: " ")
        port = Int(words[2]) ?? 0
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }

    /// The issuer, as its tokens and discovery name it.
    public var issuer: String { "http://127.0.0.1:\(port)" }

    /// A token with `header` and `claims` signed by `key` (`rsa`, `ec`, `rsa-2`, `stranger`, `none`).
    public func mint(header: [String: Any], claims: [String: Any], key: String = "rsa") throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["header": header, "claims": claims, "key": key])
        let response = try HTTPTestClient.request(port: port, method: "POST", path: "/mint", body: Array(body))
        guard response.status == 200 else { throw TestFailure("mint answered \(response.status): \(response.text)") }
        return response.text
    }

    /// Changes what the provider does (see the script's documentation: user, alg, max_age, publish_rsa2, login_form).
    public func control(_ settings: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: settings)
        let response = try HTTPTestClient.request(port: port, method: "POST", path: "/control", body: Array(body))
        guard response.status == 200 else { throw TestFailure("control answered \(response.status)") }
    }

    /// How many times discovery, the keys, the authorization and the token endpoints were asked.
    public func stats() throws -> [String: Int] {
        let response = try HTTPTestClient.request(port: port, path: "/stats")
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Int]) ?? [:]
    }
}
