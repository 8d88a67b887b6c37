import Foundation
import LinkKit
import Postgres

/// The SQL of `apps` and the decoding of its rows.
enum AppStore: ResourceStore {
    typealias Resource = App
    static let table = "apps"
    static let columns = """
        id, platform, name, team_id, bundle_id, app_store_id, custom_scheme, package_name, sha256_cert_fingerprints,
        play_store_url, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8,
        primary_domain_id, (SELECT hostname FROM domains WHERE domains.id = apps.primary_domain_id), icon_url
        """
    /// How many columns `columns` selects (a query may read more after them).
    static let columnCount = 17
    static let address = (key: "id", owner: "workspace_id")

    /// The apps of `workspace`, of one platform or all.
    static func page(_ page: Page, workspace: UUID, platform: AppPlatform?, on connection: Connection) throws -> [App] {
        try self.page(
            page, where: "workspace_id = $1 AND ($2::text IS NULL OR platform = $2)", [workspace, platform?.rawValue], on: connection)
    }

    static func insert(_ input: AppInput, platform: AppPlatform, workspace: UUID, on connection: Connection) throws -> App {
        try insert(
            """
            workspace_id, platform, name, team_id, bundle_id, app_store_id, custom_scheme, package_name,
            sha256_cert_fingerprints, play_store_url, icon_url
            """,
            [
                workspace, platform.rawValue, input.name!, input.teamID, input.bundleID, input.appStoreID,
                input.customScheme, input.packageName, JSONText(input.fingerprintsJSON.serialized), input.playStoreURL,
                input.iconURL,
            ], on: connection)
    }

    /// Saves every writable field of `app` as its next version.
    static func save(_ app: App, on connection: Connection) throws -> App {
        try update(
            app.id,
            set: """
                name = $2, team_id = $3, bundle_id = $4, app_store_id = $5, custom_scheme = $6,
                package_name = $7, sha256_cert_fingerprints = $8, play_store_url = $9, primary_domain_id = $10, icon_url = $11
                """,
            [
                app.name, app.teamID, app.bundleID, app.appStoreID, app.customScheme, app.packageName,
                JSONText(app.fingerprintsJSON.serialized), app.playStoreURL, app.primaryDomainID, app.iconURL,
            ], on: connection)
    }

    /// The apps among `ids` (uuid text) that are in `workspace`.
    static func all(_ ids: [String], workspace: UUID, on connection: Connection) throws -> [App] {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM apps WHERE workspace_id = \(workspace) AND id = ANY(\(ids)::uuid[])
            """
        ).map(App.init(row:))
    }

    /// Every app of `workspace`.
    static func all(workspace: UUID, on connection: Connection) throws -> [App] {
        try connection.query("SELECT \(unescaped: columns) FROM apps WHERE workspace_id = \(workspace)").map(App.init(row:))
    }

    /// Every app of the `workspaces` (uuid text), each with its workspace.
    static func all(ofWorkspaces workspaces: [String], on connection: Connection) throws -> [(App, UUID)] {
        try connection.query("SELECT \(unescaped: columns), workspace_id FROM apps WHERE workspace_id = ANY(\(workspaces)::uuid[])")
            .map { row in (try App(row: row), try row.decode(columnCount, as: UUID.self)) }
    }

    /// Whether another app of `workspace` (not `excluding`) has the identity of `input`: the same team and bundle ID
    /// (bundle IDs compared without case) or the same package name.
    static func hasDuplicate(of input: AppInput, workspace: UUID, excluding id: UUID?, on connection: Connection) throws -> Bool {
        try connection.query(
            """
            SELECT id FROM apps WHERE workspace_id = \(workspace) AND id IS DISTINCT FROM \(id)
              AND ((platform = 'ios' AND team_id = \(input.teamID) AND lower(bundle_id) = lower(\(input.bundleID)))
                   OR (platform = 'android' AND package_name = \(input.packageName)))
            """
        ).count > 0
    }

    /// The name of another app of `workspace` and `platform` (not `excluding`) that registered `scheme`, if any:
    /// schemes are unique per platform, an iOS and an Android app of one product share theirs.
    static func schemeOwner(
        _ scheme: String, platform: AppPlatform, workspace: UUID, excluding id: UUID?,
        on connection: Connection
    ) throws -> String? {
        try connection.query(
            """
            SELECT name FROM apps WHERE workspace_id = \(workspace) AND platform = \(platform.rawValue)
              AND lower(custom_scheme) = lower(\(scheme))
              AND id IS DISTINCT FROM \(id)
            ORDER BY created_at, id LIMIT 1
            """
        ).first.map { try $0.decode(0, as: String.self) }
    }

    /// The hostnames of the domains whose rules name the app, oldest first.
    static func hostnames(namedByRulesOf id: UUID, on connection: Connection) throws -> [String] {
        try connection.query(
            """
            SELECT d.hostname FROM domains d WHERE EXISTS (
                SELECT 1 FROM rules r JOIN rule_apps ra ON ra.rule_id = r.id WHERE r.domain_id = d.id AND ra.app_id = \(id))
            ORDER BY d.created_at, d.id
            """
        ).map { try $0.decode(0, as: String.self) }
    }

    /// The hostnames of the domains that use the app: their rules name it, or their settings do (`webcredentials`,
    /// `appclips`, among the domains of the app's workspace). Their files change when the app does, and the app
    /// cannot be deleted while there are any.
    static func hostnames(using id: UUID, on connection: Connection) throws -> [String] {
        try connection.query(
            """
            SELECT d.hostname FROM rule_apps ra JOIN rules r ON r.id = ra.rule_id JOIN domains d ON d.id = r.domain_id
            WHERE ra.app_id = \(id)
            UNION
            SELECT d.hostname FROM domains d JOIN apps a ON a.workspace_id = d.workspace_id
            WHERE a.id = \(id)
              AND (d.settings -> 'webcredentials' ? \(id.canonicalText) OR d.settings -> 'appclips' ? \(id.canonicalText))
            """
        ).map { try $0.decode(0, as: String.self) }
    }
}

extension App {
    init(row: Row) throws {
        let platform: String
        let fingerprints: JSONText
        (
            id, platform, name, teamID, bundleID, appStoreID, customScheme, packageName, fingerprints, playStoreURL, version, createdAt,
            updatedAt, sortMicros,
            primaryDomainID, primaryDomain, iconURL
        ) =
            try row.decode(
                (
                    UUID, String, String, String?, String?, String?, String?, String?, JSONText, String?, Int, Date, Date, Int64, UUID?,
                    String?,
                    String?
                ).self)
        self.platform = AppPlatform(rawValue: platform) ?? .ios
        self.fingerprints =
            (try? JSONValue.parse(fingerprints.json))?.arrayValue?.compactMap { element in
                element["value"]?.stringValue.map { Fingerprint(value: $0, label: element["label"]?.stringValue) }
            } ?? []
    }
}
