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
        guard let server = URL(string: text), let scheme = server.scheme, ["http", "https"].contains(scheme.lowercased()),
            server.host != nil
        else {
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
        let answer = try exchange(method, path, body: body, contentType: body == nil ? nil : "application/json")
        return (answer.status, answer.body)
    }

    /// What the server answered: its status, body and `Link: <…>; rel="next"` target (a path and query), if any.
    struct Answer {
        let status: Int
        let body: Data
        let next: String?
    }

    /// `method path?query` with `body` sent as `contentType`. `path` may carry its query already (a `next` link).
    /// - Throws: when the server cannot be reached.
    func exchange(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, contentType: String? = nil
    ) throws -> Answer {
        let (pathOnly, given) =
            path.firstIndex(of: "?").map { (String(path[..<$0]), String(path[path.index(after: $0)...])) } ?? (path, nil)
        var components = URLComponents(url: server.appendingPathComponent(pathOnly), resolvingAgainstBaseURL: false)!
        if let given {
            components.percentEncodedQuery = given
        } else if !query.isEmpty {
            components.queryItems = query
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        // A bulk upload of 100,000 links takes a while to write.
        request.timeoutInterval = 600
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue(contentType ?? "application/json", forHTTPHeaderField: "Content-Type")
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Answer, any Error> = .failure(URLError(.unknown))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result = .failure(error)
            } else {
                let http = response as? HTTPURLResponse
                result = .success(
                    Answer(
                        status: http?.statusCode ?? 0, body: data ?? Data(),
                        next: (http?.value(forHTTPHeaderField: "Link")).flatMap(Self.next)))
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }

    /// The target of `<target>; rel="next"` in a `Link` header.
    static func next(_ header: String) -> String? {
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close else { continue }
            return String(part[part.index(after: open)..<close])
        }
        return nil
    }

    /// Reads `path` (`-`: standard input).
    static func read(_ path: String) throws -> Data {
        path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
