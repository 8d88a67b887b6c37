import Foundation

/// Who is calling: the workspace, the key or the signed-in person, the key's scope and the role acted as. Every
/// query a handler runs is filtered by `workspaceID`; what the caller may do is the endpoint's scope and role
/// (`Endpoint.access`, `Endpoint.role`) checked against `scope` and `role`.
public struct Principal: Sendable, Equatable {
    public let workspaceID: UUID
    /// The API key, when the request carried one.
    public let keyID: UUID?
    /// The person: the one signed in with a session, or the one who created the key.
    public let personID: UUID?
    /// The session, when the request was authenticated with its cookie.
    public let sessionID: UUID?
    /// A key's scope; a person's session has every scope, bounded by `role`.
    public let scope: Scope
    public let role: Role
    /// The client address the request came from, as the server decides it (`Request.remoteAddress`: behind a trusted
    /// proxy, the one it forwarded); nil outside a request (the command line). The audit log records it.
    public var address: String?

    public init(workspaceID: UUID, keyID: UUID?, personID: UUID? = nil, sessionID: UUID? = nil, scope: Scope, role: Role) {
        self.workspaceID = workspaceID
        self.keyID = keyID
        self.personID = personID
        self.sessionID = sessionID
        self.scope = scope
        self.role = role
    }
}
