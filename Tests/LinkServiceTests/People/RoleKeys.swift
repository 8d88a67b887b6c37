import Foundation
@testable import LinkService
import Postgres
import TestSupport

extension TestService {
    /// A new key of `workspace` (created when missing) with `scope`, acting as `role`, created by `person` if any.
    func key(workspace: String = "acme", scope: Scope = .admin, role: Role, createdBy person: UUID? = nil) throws -> String {
        try application.pool.withTransaction { connection in
            let workspaceID = try WorkspaceStore.ensure(workspace, on: connection)
            return try KeyStore.create(
                on: connection, workspaceID: workspaceID, name: "\(role.rawValue) key", scope: scope, role: role,
                createdBy: person
            ).1.token
        }
    }

    /// A person with `email`, created when missing; their id.
    func personID(_ email: String) throws -> UUID {
        try application.pool.withConnection { try PersonStore.ensure(email: email, on: $0).id }
    }
}
