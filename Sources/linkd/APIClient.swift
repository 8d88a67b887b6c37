import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small client of linkd's HTTP API for the commands that work through it (with an API key, as any other
/// client): `--server URL` (`LINKD_URL`, default `http://127.0.0.1:8080`) and `--key KEY` (`LINKD_API_KEY`).
struct APIClient {
    /// The options every API-backed command takes.
    static let valuedOptions: Set<String> = ["server", "key"]
    static let optionsHelp = """
          --server URL           LINKD_URL        the linkd to ask (default http://127.0.0.1:8080)
          --key KEY              LINKD_API_KEY    an API key of the workspace (linkd keys create)
        """

    let server: URL
    let key: String

    init(_ arguments: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let text = arguments.value("server", environment: "LINKD_URL", environment) ?? "http://127.0.0.1:8080"
        guard let server = URL(string: text), let scheme = server.scheme, ["http", "https"].contains(scheme.lowercased()), server.host != nil else {
            throw Arguments.UsageError(description: "--server must be an http(s) URL such as http://127.0.0.1:8080")
        }
        guard let key = arguments.value("key", environment: "LINKD_API_KEY", environment) else {
            throw Arguments.UsageError(description: "an API key is required: --key or LINKD_API_KEY")
        }
        self.server = server
        self.key = key
    }

    /// The status and body of `method path` with a JSON `body`.
    /// - Throws: when the server cannot be reached.
    func send(_ method: String, _ path: String, json body: Data?) throws -> (status: Int, body: Data) {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<(Int, Data), any Error> = .failure(URLError(.unknown))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else {
                result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }
}
