import Foundation
import LinkKit
import Postgres

/// Which hostnames a workspace may register (docs/WORKSPACES.md): only under the suffixes an operator
/// allowed it, if any; never a name another workspace has; never a wildcard that would govern another
/// workspace's names, nor a name another workspace's wildcard governs (a wildcard `*.example.com` governs
/// `example.com` and everything under it, see `Catalog.entry(governing:)`).
enum DomainClaims {
    /// The transaction-level advisory lock every registration takes first ("ldom"), so two workspaces
    /// registering conflicting names at the same moment are decided one after the other.
    static let lockKey: Int64 = 0x6C64_6F6D

    /// Waits for the registration lock, held until the transaction ends. Must be the transaction's first
    /// statement: each later statement's snapshot then sees every registration committed before it.
    static func lock(on connection: Connection) throws {
        try DomainStore.lockRegistrations(lockKey, on: connection)
    }

    /// Checks that `workspace` may register `hostname` (normalised) now; call it after `lock(on:)`.
    /// - Throws: `ServiceError.validation` at `/hostname` naming the allowed suffixes when it is outside them;
    ///   `ServiceError.conflict` when the name is taken or crosses another workspace's names (which are not named).
    static func check(_ hostname: String, workspace: UUID, on connection: Connection) throws {
        let suffixes = try WorkspaceHostSuffixes.suffixes(of: workspace, on: connection)
        if !suffixes.isEmpty, !suffixes.contains(where: { Hostname.name(hostname, isWithin: $0) }) {
            throw ServiceError.validation([
                .init(
                    pointer: "/hostname",
                    detail: """
                        This workspace may register hostnames under \(suffixes.joined(separator: ", ")) only \
                        (set by the operator with linkd workspaces allow-suffix).
                        """)
            ])
        }
        if try DomainStore.isRegistered(hostname, on: connection) {
            throw ServiceError.conflict("The domain \(hostname) is already registered.")
        }
        let root = Hostname.servingHost(of: hostname)
        // The wildcards that would govern `root`: `*.` before it and before each parent of two labels or more.
        let labels = root.split(separator: ".")
        let governing = (0..<max(0, labels.count - 1)).map { "*." + labels[$0...].joined(separator: ".") }
        if try DomainStore.isAnyRegistered(governing, byOtherThan: workspace, on: connection) {
            throw ServiceError.conflict("\(hostname) is governed by a wildcard domain that another workspace has registered.")
        }
        // A new wildcard governs `root` and every name under it, wildcards included (`*.a.root` ends in `.root`).
        guard hostname != root else { return }
        if try DomainStore.isAnyRegistered(atOrUnder: root, byOtherThan: workspace, on: connection) {
            throw ServiceError.conflict("The wildcard \(hostname) would govern hostnames that another workspace has registered.")
        }
    }
}
