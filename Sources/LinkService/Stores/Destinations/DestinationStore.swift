import Foundation
import LinkKit
import Postgres

/// The SQL of `destinations` and the decoding of its rows.
enum DestinationStore: ResourceStore {
    typealias Resource = Destination
    static let table = "destinations"
    static let columns = """
        id, app_id, name, title, params, requires_sign_in, version, created_at, updated_at,
        (extract(epoch FROM created_at) * 1000000)::int8, description, image_url
        """
    static let address = (key: "name", owner: "app_id")

    static func insert(
        _ name: String, title: String?, preview: LinkPreview, parameters: [ParameterSpec], requiresSignIn: Bool,
        app: UUID, workspace: UUID, on connection: Connection
    ) throws -> Destination {
        try insert(
            "workspace_id, app_id, name, title, params, requires_sign_in, description, image_url",
            [workspace, app, name, title, params(parameters), requiresSignIn, preview.description, preview.imageURL], on: connection)
    }

    /// Replaces the title, preview metadata, parameters and sign-in flag (the name is the address and stays).
    static func replace(
        _ id: UUID, title: String?, preview: LinkPreview, parameters: [ParameterSpec], requiresSignIn: Bool,
        on connection: Connection
    ) throws -> Destination {
        try update(
            id, set: "title = $2, params = $3, requires_sign_in = $4, description = $5, image_url = $6",
            [title, params(parameters), requiresSignIn, preview.description, preview.imageURL], on: connection)
    }

    /// Every destination type of `app`, by name.
    static func all(of app: UUID, on connection: Connection) throws -> [Destination] {
        try connection.query("SELECT \(unescaped: columns) FROM destinations WHERE app_id = \(app) ORDER BY name")
            .map(Destination.init(row:))
    }

    /// Every destination type of the `apps` (uuid text).
    static func all(ofApps apps: [String], on connection: Connection) throws -> [Destination] {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM destinations WHERE app_id = ANY(\(apps)::uuid[])
            """
        ).map(Destination.init(row:))
    }

    /// Every destination type of `workspace`.
    static func all(workspace: UUID, on connection: Connection) throws -> [Destination] {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM destinations WHERE workspace_id = \(workspace)
            """
        ).map(Destination.init(row:))
    }

    /// Every destination type of the `workspaces` (uuid text).
    static func all(ofWorkspaces workspaces: [String], on connection: Connection) throws -> [Destination] {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM destinations WHERE workspace_id = ANY(\(workspaces)::uuid[])
            """
        ).map(Destination.init(row:))
    }

    /// The hostnames of the domains whose rules lead to the destination type `name` of `app`.
    static func hostnames(leadingTo name: String, app: UUID, on connection: Connection) throws -> [String] {
        try connection.query(
            """
            SELECT DISTINCT d.hostname FROM rules r JOIN rule_apps ra ON ra.rule_id = r.id JOIN domains d ON d.id = r.domain_id
            WHERE ra.app_id = \(app) AND r.definition -> 'destination' ->> 'type' = \(name)
            """
        ).map { try $0.decode(0, as: String.self) }
    }

    private static func params(_ parameters: [ParameterSpec]) -> JSONText {
        JSONText(ParameterSpecJSON.json(parameters).serialized)
    }
}

extension Destination {
    init(row: Row) throws {
        let params: JSONText
        (id, appID, name, title, params, requiresSignIn, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, String?, JSONText, Bool, Int, Date, Date, Int64).self)
        (description, imageURL) = try (row.decode(10, as: String?.self), row.decode(11, as: String?.self))
        let errors = FieldErrors()
        parameters = ParameterSpecJSON.read((try? JSONValue.parse(params.json)) ?? .object([]), at: "/params", errors)
    }
}
