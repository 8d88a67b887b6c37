import Foundation
import Postgres

/// An app's `primaryDomain`: the link domain whose rules its custom-scheme links follow (docs/LINKS.md).
enum AppPrimaryDomain {
    /// The id of the domain `hostname` of `workspace` whose rules name `app`.
    /// - Throws: a 422 on `/primaryDomain` when there is no such domain (a new app is named by no rule yet).
    static func id(of hostname: String, app: UUID?, workspace: UUID, on connection: Connection) throws -> UUID {
        guard let found = try DomainStore.id(of: hostname, namingApp: app, workspace: workspace, on: connection) else {
            throw ServiceError.validation([
                .init(
                    pointer: "/primaryDomain",
                    detail: app == nil
                        ? "primaryDomain must be a link domain whose rules name the app: add the app to a rule of \(hostname) first, then set it."
                        : "primaryDomain must be a link domain of this workspace whose rules name the app; \(hostname) is not one.")
            ])
        }
        return found
    }
}
