import Foundation
import HTTPServer
import LinkKit
import Postgres

/// The shape every `/v1` resource's endpoints share, so that a handler keeps only its input, its authorisation
/// (which rows the caller may see: `find`) and what is its own:
///
/// - a write is one transaction through `CatalogChanges` (what it announces is installed on this node before
///   it answers), audited in that transaction (`AuditStore`, with the resource before and after);
/// - an update or delete finds the resource locked, then checks `If-Match` against its version (412), so of two
///   racing writers exactly one wins; `find` throws the 404;
/// - a list is one keyset page (`Page`), a read answers with the resource's ETag.
struct ResourceEndpoints: Sendable {
    let changes: CatalogChanges

    /// `POST`: `insert` checks and inserts (and announces) in the transaction. Answers 201 with ETag and the
    /// `Location` that `location` prints for the new resource from its route (`EndpointGroup.location`).
    func create<R: VersionedResource>(
        _ principal: Principal, location: (R) -> String, _ insert: (Connection, ChangeSet) throws -> R
    ) throws -> Response {
        let created = try changes.commit { connection, changed -> R in
            let created = try insert(connection, changed)
            try AuditStore.record(on: connection, principal, .create, type: R.auditType, id: created.auditID, after: created.json)
            return created
        }
        return .resource(created.json, version: created.version, status: 201, location: location(created))
    }

    /// `GET` of a collection: the page `rows` reads.
    func list<R: ResourceRow>(_ request: Request, _ rows: (Page, Connection) throws -> [R]) throws -> Response {
        let page = try Page(request)
        let items = try changes.pool.withConnection { connection in try rows(page, connection) }
        return page.response(request, items: items.map { ($0.json, $0.sortMicros, $0.id) })
    }

    /// `GET` of one resource.
    func get<R: VersionedResource>(_ find: (Connection) throws -> R) throws -> Response {
        let resource = try changes.pool.withConnection { connection in try find(connection) }
        return .resource(resource.json, version: resource.version)
    }

    /// `PATCH` or `PUT`: `find` locks the resource, `check` validates the change against it (422 before 412),
    /// `If-Match` is checked, then `save` writes (and announces) the change and returns the new version.
    func update<R: VersionedResource, Change>(
        _ request: Request, _ principal: Principal, find: (Connection) throws -> R,
        check: (R, Connection) throws -> Change, save: (R, Change, Connection, ChangeSet) throws -> R
    ) throws -> Response {
        let updated = try changes.commit { connection, changed -> R in
            let before = try find(connection)
            let change = try check(before, connection)
            try ETag.check(request, current: before.version)
            let after = try save(before, change, connection, changed)
            try AuditStore.record(
                on: connection, principal, .update, type: R.auditType, id: after.auditID, before: before.json, after: after.json)
            return after
        }
        return .resource(updated.json, version: updated.version)
    }

    /// `DELETE`: `find` locks the resource, `If-Match` is checked, `remove` refuses (409) or deletes it (and
    /// announces what changes). Answers 204.
    func delete<R: VersionedResource>(
        _ request: Request, _ principal: Principal, find: (Connection) throws -> R, remove: (R, Connection, ChangeSet) throws -> Void
    ) throws -> Response {
        try changes.commit { connection, changed in
            let resource = try find(connection)
            try ETag.check(request, current: resource.version)
            try remove(resource, connection, changed)
            try AuditStore.record(on: connection, principal, .delete, type: R.auditType, id: resource.auditID, before: resource.json)
        }
        return .empty()
    }
}
