import Foundation
import Postgres

/// The SQL of `app_event_keys`: an app's publishable key for `POST /v1/events`, stored by its hash only.
enum AppEventKeyStore {
    /// Makes `hash` the key of `app` (replacing any earlier one); the time it was made.
    static func replace(app: UUID, workspace: UUID, hash: String, prefix: String, on connection: Connection) throws -> Date {
        try connection.query(
            """
            INSERT INTO app_event_keys (app_id, workspace_id, key_hash, prefix) VALUES (\(app), \(workspace), \(hash), \(prefix))
            ON CONFLICT (app_id) DO UPDATE SET key_hash = excluded.key_hash, prefix = excluded.prefix, created_at = now()
            RETURNING created_at
            """
        ).first!.decode(0, as: Date.self)
    }

    /// Deletes the key of `app` in `workspace`; whether there was one.
    static func delete(app: UUID, workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.query("DELETE FROM app_event_keys WHERE app_id = \(app) AND workspace_id = \(workspace) RETURNING 1").first != nil
    }

    /// The workspace and app of the key of hash `hash`.
    static func find(_ hash: String, on connection: Connection) throws -> (workspace: UUID, app: UUID)? {
        try connection.query("SELECT workspace_id, app_id FROM app_event_keys WHERE key_hash = \(hash)").first
            .map { try $0.decode((UUID, UUID).self) }
    }
}
