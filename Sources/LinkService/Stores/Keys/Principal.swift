import Foundation

/// Who is calling: the workspace a key belongs to, the key, and its scope. Every query a handler runs
/// is filtered by `workspaceID`.
public struct Principal: Sendable, Equatable {
    public let workspaceID: UUID
    public let keyID: UUID
    public let scope: Scope
}
