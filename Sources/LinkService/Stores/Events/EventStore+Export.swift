import Foundation
import LinkKit
import Postgres

/// The export's reads (`GET /v1/events/export`, docs/EVENTS.md "Export"): a workspace's events in time order,
/// narrowed by the filters, a page at a time.
extension EventStore {
    /// What the export keeps: each set member narrows it.
    struct Filter: Sendable {
        var from: Date?
        /// Exclusive.
        var to: Date?
        var link: UUID?
        var kind: Event.Kind?
        var name: String?
        var visitor: String?
    }

    /// The events of `workspace` the filter keeps, by `(occurred_at, id)`, after the row `after` (its time in microseconds and
    /// id), `limit + 1` at most (the extra one says another page exists).
    static func page(
        workspace: UUID, filter: Filter, after: (micros: Int64, id: UUID)?, limit: Int, on connection: Connection
    ) throws -> [(event: StoredEvent, micros: Int64)] {
        try connection.query(
            """
            SELECT \(unescaped: StoredEvent.columns), (extract(epoch FROM e.occurred_at) * 1000000)::int8 FROM events e
            WHERE e.workspace_id = \(workspace)
              AND (\(filter.from)::timestamptz IS NULL OR e.occurred_at >= \(filter.from))
              AND (\(filter.to)::timestamptz IS NULL OR e.occurred_at < \(filter.to))
              AND (\(filter.link)::uuid IS NULL OR e.link_id = \(filter.link))
              AND (\(filter.kind?.rawValue)::text IS NULL OR e.kind = \(filter.kind?.rawValue))
              AND (\(filter.name)::text IS NULL OR e.name = \(filter.name))
              AND (\(filter.visitor)::text IS NULL OR e.visitor_id = \(filter.visitor))
              AND (\(after?.micros)::int8 IS NULL
                   OR (e.occurred_at, e.id) > (timestamptz 'epoch' + \(after?.micros) * interval '1 microsecond', \(after?.id)))
            ORDER BY e.occurred_at, e.id LIMIT \(limit + 1)
            """
        ).map { (try StoredEvent(row: $0), try $0.decode(StoredEvent.columnCount, as: Int64.self)) }
    }
}
