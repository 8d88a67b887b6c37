import HTTPServer

extension Authenticator {
    /// The caller of an endpoint declared with `scope` and `role` (`Endpoint.routeHandler`): authenticated with
    /// `scope`, then refused when it acts as a role below `role`, whether it came with a key or signed in. The
    /// principal carries the request's client address, for the audit log.
    /// - Throws: what `authenticate(_:requiring:)` throws; `ServiceError.forbidden` naming both roles and the workspace.
    func authenticate(_ request: Request, requiring scope: Scope, role: Role) throws -> Principal {
        var principal = try authenticate(request, requiring: scope)
        guard principal.role >= role else {
            // Only on a refusal: the workspace's name, so the message says where the caller acts as what.
            let name = try? pool.withConnection { try WorkspaceStore.name(of: principal.workspaceID, on: $0) }
            throw ServiceError.forbidden(
                "This call needs the \(role.rawValue) role; you act as \(principal.role.rawValue) in \(name ?? "this workspace").")
        }
        principal.address = request.remoteAddress
        return principal
    }
}
