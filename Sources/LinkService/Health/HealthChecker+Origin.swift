import Foundation
import LinkKit
import Outbound

extension HealthChecker {
    /// The origin check: both `/.well-known/` files answer 200 without a redirect, as `application/json`, the AASA
    /// within Apple's 128 KB, valid JSON, and bytes equal to a known version. State: `failing` when a request got
    /// no answer, else `misconfigured` when a file breaks a rule, else the files' worst match (`unknown`, `stale`,
    /// `current`).
    func originResult(aasa: FetchOutcome, assetLinks: FetchOutcome, entry: CatalogEntry, versions: [AssociationVersion]) -> CheckResult {
        let files = [
            (
                name: "aasa", outcome: aasa, current: entry.aasa.etag, limit: Self.appleSizeLimit,
                etag: { (v: AssociationVersion) in v.aasaETag }
            ),
            (
                name: "assetlinks", outcome: assetLinks, current: entry.assetLinks.etag, limit: Int.max,
                etag: { (v: AssociationVersion) in v.assetLinksETag }
            ),
        ]
        var members: [JSONMember] = []
        var failure: JSONValue?
        var misconfigured = false
        var matches: [VersionMatch] = []
        for file in files {
            var detail = [JSONMember(key: "url", value: .string(file.outcome.url))]
            var problems: [String] = []
            switch file.outcome.result {
            case .failure(let error) where error.kind == .tooLarge:
                problems.append("tooLarge")
                detail.append(JSONMember(key: "reason", value: FetchOutcome.reason(error.kind.rawValue, error.message)))
            case .failure:
                let reason = file.outcome.failureReason ?? .null
                failure = failure ?? reason
                detail.append(JSONMember(key: "reason", value: reason))
            case .success(let response):
                detail.append(JSONMember(key: "status", value: .integer(response.status)))
                if response.isRedirect {
                    problems.append("redirect")
                    detail.append(JSONMember(key: "location", value: .string(response.redirectURL ?? response.location ?? "")))
                } else if response.status != 200 {
                    problems.append("status")
                }
                detail.append(JSONMember(key: "contentType", value: response.contentType.map { .string($0) } ?? .null))
                detail.append(JSONMember(key: "bytes", value: .integer(response.body.count)))
                if response.status == 200 {
                    if !Self.isJSONMediaType(response.contentType) { problems.append("contentType") }
                    if response.body.count > file.limit { problems.append("tooLarge") }
                    if (try? JSONValue.parse(bytes: response.body)) == nil { problems.append("notJSON") }
                    let etag = ETag.strong(of: response.body)
                    let match = VersionMatch(etag: etag, current: file.current, versions: versions, file: file.etag)
                    detail.append(JSONMember(key: "etag", value: .string(etag)))
                    detail.append(JSONMember(key: "match", value: .string(match.state.rawValue)))
                    detail += match.members
                    matches.append(match)
                }
            }
            detail.append(JSONMember(key: "problems", value: .array(problems.map { .string($0) })))
            misconfigured = misconfigured || !problems.isEmpty
            members.append(JSONMember(key: file.name, value: .object(detail)))
        }
        let state: CheckState
        if let failure {
            state = .failing
            members.append(JSONMember(key: "reason", value: failure))
        } else if misconfigured {
            state = .misconfigured
        } else if matches.contains(where: { $0 == .unknown }) {
            state = .unknown
        } else if matches.contains(where: { $0.state == .stale }) {
            state = .stale
        } else {
            state = .current
        }
        return CheckResult(.origin, state, .object(members))
    }

    /// Whether a `Content-Type` is `application/json` (parameters such as `charset` allowed), the type Apple and
    /// Google read the files as.
    static func isJSONMediaType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}
