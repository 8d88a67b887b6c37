import Foundation
import LinkKit
import Postgres

/// The hostname suffixes an operator lets a workspace register domains under (`linkd workspaces`), kept in
/// `workspace_host_suffixes` and enforced when a domain is registered (`DomainClaims`). A workspace without
/// any may register any hostname.
public enum WorkspaceHostSuffixes {
    /// One workspace's restriction.
    public struct Listing: Sendable, Equatable {
        /// The workspace's name.
        public let workspace: String
        /// The allowed suffixes, sorted; empty when any hostname is allowed.
        public let suffixes: [String]
        /// Domains the workspace registered that are outside `suffixes` (registered before the restriction):
        /// they keep working, only new registrations are checked.
        public let domainsOutside: [String]
    }

    /// Allows `workspace` to register hostnames equal to or under `suffix` (idempotent).
    /// - Throws: `ServiceError.validation` for a suffix that is not a domain name, `.notFound` for an unknown
    ///   workspace; `PostgresError` when the database fails.
    public static func allow(_ suffix: String, workspace: String, pool: ConnectionPool) throws -> Listing {
        let suffix = try normalised(suffix)
        return try pool.withTransaction { connection in
            // Taken like a registration does, so a registration running now is decided before or after this.
            try DomainClaims.lock(on: connection)
            let (id, name) = try find(workspace, on: connection)
            try WorkspaceStore.addSuffix(suffix, workspace: id, on: connection)
            return try listing(id, name, on: connection)
        }
    }

    /// Takes `suffix` off the workspace's list; removing the last one lifts the restriction.
    /// - Throws: `ServiceError.notFound` for an unknown workspace or a suffix it does not have;
    ///   `.validation` for a suffix that is not a domain name; `PostgresError` when the database fails.
    public static func remove(_ suffix: String, workspace: String, pool: ConnectionPool) throws -> Listing {
        let suffix = try normalised(suffix)
        return try pool.withTransaction { connection in
            try DomainClaims.lock(on: connection)
            let (id, name) = try find(workspace, on: connection)
            if try !WorkspaceStore.removeSuffix(suffix, workspace: id, on: connection) {
                throw ServiceError.notFound("The suffix \(suffix) of workspace '\(name)'")
            }
            return try listing(id, name, on: connection)
        }
    }

    /// Every workspace's restriction (by name), or only `workspace`'s.
    /// - Throws: `ServiceError.notFound` for an unknown workspace; `PostgresError` when the database fails.
    public static func list(workspace: String? = nil, pool: ConnectionPool) throws -> [Listing] {
        try pool.withConnection { connection in
            if let workspace {
                let (id, name) = try find(workspace, on: connection)
                return [try listing(id, name, on: connection)]
            }
            return try WorkspaceStore.all(on: connection).map { try listing($0.id, $0.name, on: connection) }
        }
    }

    /// The workspace's allowed suffixes, sorted (empty: any hostname).
    static func suffixes(of workspace: UUID, on connection: Connection) throws -> [String] {
        try WorkspaceStore.suffixes(of: workspace, on: connection)
    }

    private static func normalised(_ suffix: String) throws -> String {
        do { return try Hostname(suffix: suffix).rawValue } catch {
            throw ServiceError.validation([.init(pointer: "/suffix", detail: error.message)])
        }
    }

    private static func find(_ workspace: String, on connection: Connection) throws -> (UUID, String) {
        guard let found = try WorkspaceStore.find(workspace, on: connection) else {
            throw ServiceError.notFound("The workspace '\(workspace)'")
        }
        return found
    }

    private static func listing(_ id: UUID, _ name: String, on connection: Connection) throws -> Listing {
        let suffixes = try suffixes(of: id, on: connection)
        var outside: [String] = []
        if !suffixes.isEmpty {
            outside = try WorkspaceStore.hostnames(of: id, on: connection)
                .filter { host in !suffixes.contains { Hostname.name(host, isWithin: $0) } }
        }
        return Listing(workspace: name, suffixes: suffixes, domainsOutside: outside)
    }
}
