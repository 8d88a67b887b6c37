import Foundation
import LinkKit

/// Which version of a domain's files some fetched bytes are, by the ETag the versions keep (`ETag.strong`, the
/// first 128 bits of SHA-256): the file served now, an older version (and since when it has been old), or none.
enum VersionMatch: Equatable {
    /// The bytes linkd serves now (`version`: the latest kept version with them, nil when none is recorded yet).
    case current(version: Int?)
    /// Version `version`, replaced by version `replacedBy` at `since`.
    case stale(version: Int, replacedBy: Int?, since: Date?)
    /// No kept version has these bytes.
    case unknown

    /// The match of `etag` for the file `file` picks from each version (the AASA's or assetlinks.json's ETag),
    /// `current` being the ETag this node serves now. The latest version's file is current too: this node's catalog
    /// may not have installed the write another node just committed.
    init(etag: String, current: String, versions: [AssociationVersion], file: (AssociationVersion) -> String) {
        guard let index = versions.lastIndex(where: { file($0) == etag }) else {
            self = etag == current ? .current(version: nil) : .unknown
            return
        }
        if etag == current || index == versions.index(before: versions.endIndex) {
            self = .current(version: versions[index].number)
            return
        }
        let next = versions.index(after: index) < versions.endIndex ? versions[versions.index(after: index)] : nil
        self = .stale(version: versions[index].number, replacedBy: next?.number, since: next?.createdAt)
    }

    var state: CheckState {
        switch self {
        case .current: .current
        case .stale: .stale
        case .unknown: .unknown
        }
    }

    /// `version`, and for a stale one `replacedBy` and `staleSince`.
    var members: [JSONMember] {
        switch self {
        case .current(let version):
            [JSONMember(key: "version", value: version.map { .integer($0) } ?? .null)]
        case .stale(let version, let replacedBy, let since):
            [
                JSONMember(key: "version", value: .integer(version)),
                JSONMember(key: "replacedBy", value: replacedBy.map { .integer($0) } ?? .null),
                JSONMember(key: "staleSince", value: since.map { .timestamp($0) } ?? .null),
            ]
        case .unknown:
            [JSONMember(key: "version", value: .null)]
        }
    }
}
