import HTTPServer
import LinkKit
import Observability
import UserAgents

/// Classifications of recently seen `User-Agent` headers (`ClassifiedAgent`: linkd's own and uap-core's): traffic
/// repeats a few thousand of them, and a lookup costs a fraction of a scan, far less than running uap-core's
/// regexes. One per `Application`, kept per thread stripe like the other caches (`PerThreadCache`). Headers longer
/// than `longestKept` are classified by linkd every time (and their visitors hashed every time: `VisitorHasher`),
/// and not parsed with uap-core's regexes: a header no browser sends must not cost a parse per request.
final class UserAgentCache: Sendable {
    static let longestKept = 512
    private let classified: PerThreadCache<String, ClassifiedAgent>
    /// uap-core's regexes; nil: hits record no operating system or browser.
    let parser: UserAgentParser?

    /// Keeps up to `capacity` classifications in all, a table per stripe of `stripes`.
    init(capacity: Int = 1024, stripes: StripeAssignment, parser: UserAgentParser? = nil) {
        classified = PerThreadCache(capacity: capacity, stripes: stripes)
        self.parser = parser
    }

    /// The classified `User-Agent` of `request`.
    func classify(_ request: Request) -> ClassifiedAgent {
        let header = request.headers["User-Agent"]
        guard let header, header.utf8.count <= Self.longestKept else { return ClassifiedAgent(header, parser: nil) }
        return classified.value(for: header) { ClassifiedAgent(header, parser: parser) }
    }
}
