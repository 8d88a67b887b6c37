import HTTPServer
import LinkKit
import Observability

/// Classifications of recently seen `User-Agent` headers: traffic repeats a few thousand of them, and a lookup
/// costs a fraction of a scan. One per `Application`, kept per thread stripe like the other caches
/// (`PerThreadCache`). Headers longer than `longestKept` are scanned every time (and their visitors hashed
/// every time: `VisitorHasher`).
final class UserAgentCache: Sendable {
    static let longestKept = 512
    private let classified: PerThreadCache<String, UserAgent>

    /// Keeps up to `capacity` classifications in all, a table per stripe of `stripes`.
    init(capacity: Int = 1024, stripes: StripeAssignment) {
        classified = PerThreadCache(capacity: capacity, stripes: stripes)
    }

    /// The classified `User-Agent` of `request`.
    func classify(_ request: Request) -> UserAgent {
        let header = request.headers["User-Agent"]
        guard let header, header.utf8.count <= Self.longestKept else { return UserAgent(header) }
        return classified.value(for: header) { UserAgent(header) }
    }
}
