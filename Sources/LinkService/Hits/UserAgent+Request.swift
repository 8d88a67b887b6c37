import HTTPServer
import LinkKit

extension UserAgent {
    /// Classifications of recently seen `User-Agent` headers: traffic repeats a few thousand of them, and a
    /// lookup costs a fraction of a scan. Headers longer than `longestKept` are scanned every time (and their
    /// visitors hashed every time: `VisitorHasher`).
    private static let classified = PerThreadCache<String, UserAgent>(capacity: 1024)
    static let longestKept = 512

    /// The classified `User-Agent` of `request`.
    init(of request: Request) {
        let header = request.headers["User-Agent"]
        guard let header, header.utf8.count <= Self.longestKept else {
            self.init(header)
            return
        }
        self = Self.classified.value(for: header) { UserAgent(header) }
    }
}
