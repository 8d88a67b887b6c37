import Foundation
import LinkKit

/// Resolve answers of recently asked URLs, with their JSON: a URL asked again (a campaign link, the link in a
/// push sent to many, an app resolving what it was opened with) costs a lookup instead of the matcher, the
/// typed parameters and the JSON writer. `Resolver.resolve` asks it for resolve requests and clicks alike.
/// Kept per worker thread, bounded (`PerThreadCache`); URLs longer than `maximumURLLength` are not kept.
///
/// Coherence: an answer is kept at the catalog generation read before it was computed (the cache's epoch), and
/// served only while the catalog is still at that generation: any install (a rule changed here or on another
/// node, a reload) drops every kept answer at its table's next ask, so a cached answer is never older than the
/// catalog it is served beside, and none keeps a replaced catalog entry alive for long.
final class ResolveCache: Sendable {
    struct Key: Hashable, Sendable {
        let url: String
        let platform: AppPlatform
        let workspace: UUID?
    }

    /// One answer, with its JSON as `GET /v1/resolve` sends it (rendered once, when it is computed).
    final class CachedAnswer: Sendable {
        let answer: Resolver.Answer
        let json: [UInt8]

        init(answer: Resolver.Answer, json: [UInt8]) {
            self.answer = answer
            self.json = json
        }
    }

    static let maximumURLLength = 2048

    private let answers: PerThreadCache<Key, CachedAnswer>

    /// Keeps up to `capacity` answers in all (0: none).
    init(capacity: Int) {
        answers = PerThreadCache(capacity: capacity)
    }

    /// The answer kept for `key` at `generation`, else `compute`'s, kept for the next ask.
    func answer(for key: Key, generation: UInt64, otherwise compute: () throws -> (Resolver.Answer, [UInt8])) rethrows -> CachedAnswer {
        func computed() throws -> CachedAnswer {
            let (answer, json) = try compute()
            return CachedAnswer(answer: answer, json: json)
        }
        guard key.url.utf8.count <= Self.maximumURLLength else { return try computed() }
        return try answers.value(for: key, epoch: generation, otherwise: computed)
    }
}
