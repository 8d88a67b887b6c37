import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `POST /v1/events` (docs/EVENTS.md): one event or a batch (`{"events": […]}`), each read and checked on its own. A
/// refused event gets its problem in the report (pointers under `/events/<n>`) and nothing of it is written; a key
/// repeated in the request counts once and says `duplicate`.
///
/// The accepted events are left in the event pipeline's queue (`EventBatcher`) and answered `202 accepted`: the writer
/// attributes and stores them in batches across requests, and keeps an idempotency key stored before as it was
/// (counted once); while the database is away they wait in the spool.
struct EventHandlers: EndpointGroup {
    let pool: ConnectionPool
    let auth: Authenticator
    let events: EventBatcher
    let limit: EventRateLimit

    /// Most events one request carries.
    static let maxBatch = 1000

    static var schemas: [(name: String, schema: Schema)] { APISchemas.events }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/events", "recordEvents", "Record installs, opens and named events, attributed to the link that brought them",
                tag: "Events", access: .key(.write),
                description: """
                    One event, or a batch as `{"events": [...]}` (at most \(Self.maxBatch)). Each event is checked alone: a refused one gets its \
                    problem in `results` (pointers such as `/events/3/currency`) and nothing of it is stored; the others are accepted (202): \
                    queued and stored within moments, kept through a database outage or a restart. An `idempotencyKey` counts once: \
                    repeated in the request it answers `duplicate`; stored before, the stored event stays as it was. Every stored event is \
                    attributed when it is written, by the last-click model of docs/EVENTS.md: through its click token, the link URL it \
                    carries, or the visitor's last click within the workspace's window (7 days by default), placed by its `time`; \
                    otherwise `none` with the reason. A single event refused is a 422 problem. \
                    Two doors: an API key (`write` scope, editor role), or an app's publishable key as `\(AppEventKeyHandlers.header)` \
                    (`POST /v1/apps/{id}/event-key`), which sends events for its own app only and is rate-limited per key and per \
                    client address (429 with `Retry-After`).
                    """,
                body: "EventBatch", success: .json(202, "EventReport"), errors: [429, 503]
            ) { request in try receive(request) }
        ]
    }

    /// What became of one event.
    enum Outcome {
        case accepted(Event)
        case duplicate(String)
        case refused(Problem)
    }

    /// Through the door the request comes by: a publishable app key (`X-Linkd-App-Key`, without `Authorization`), held
    /// to its limits before anything else, or an API key or session with the endpoint's scope and role.
    func receive(_ request: Request) throws -> Response {
        guard request.headers["Authorization"] == nil, let key = request.headers[AppEventKeyHandlers.header] else {
            let principal = try auth.authenticate(
                request, requiring: .write, role: Endpoint.defaultRole(tag: "Events", method: .POST, scope: .write))
            return try record(request, workspace: principal.workspaceID, keyApp: nil)
        }
        let hash = SHA256.hex(key)
        // Checked before the key is looked up (a flood past the limits never reaches the database), counted after
        // it: a request handed off at its first database read runs again from the start (`Handoff`), and counts once.
        if let wait = limit.admit(key: hash, address: request.remoteAddress, counting: false) { throw Self.tooMany(wait) }
        let found = AppEventKeyHandlers.isKey(key) ? try pool.withConnection { try AppEventKeyStore.find(hash, on: $0) } : nil
        if let wait = limit.admit(key: hash, address: request.remoteAddress) { throw Self.tooMany(wait) }
        guard let found else { throw ServiceError.unauthorized("The app key is unknown or was replaced.") }
        return try record(request, workspace: found.workspace, keyApp: found.app)
    }

    private static func tooMany(_ wait: Int) -> ServiceError {
        .tooManyRequests("Too many event requests from this app key or address; retry in \(wait) seconds.", retryAfter: wait)
    }

    /// Records the events of `request` for `workspace`; with `keyApp` (a publishable key's), for that app only.
    func record(_ request: Request, workspace: UUID, keyApp: UUID?) throws -> Response {
        let body = try JSONBody.parse(request)
        guard case .object = body else {
            throw ServiceError.validation([Problem.FieldError(pointer: "", detail: "The body must be a JSON object, not \(body.typeName).")]
            )
        }
        let now = Date()
        let batch = body["events"] != nil
        var items: [(value: JSONValue, pointer: String)] = [(body, "")]
        if batch {
            let errors = FieldErrors()
            var reader = JSONObjectReader(body, at: "", errors: errors)
            items = reader.array("events", required: true, maxCount: Self.maxBatch) ?? []
            reader.finish()
            try errors.check()
        }
        var outcomes: [Outcome?] = Array(repeating: nil, count: items.count)
        var events: [(index: Int, event: Event)] = []
        for (index, item) in items.enumerated() {
            switch EventInput.read(item.value, at: item.pointer, now: now) {
            case .failure(let error): outcomes[index] = .refused(error.problem)
            case .success(var event):
                if let keyApp {
                    guard event.app == nil || event.app == keyApp else {
                        let pointer = JSONPointer.appending(item.pointer, "app")
                        outcomes[index] = .refused(
                            ServiceError.validation([
                                Problem.FieldError(pointer: pointer, detail: "An app key sends events for its own app only.")
                            ]).problem)
                        continue
                    }
                    event.app = keyApp
                }
                events.append((index, event))
            }
        }
        // Another workspace's app is refused; a key's own app (an app key's) needs no look.
        let named = Array(Set(events.compactMap(\.event.app).filter { $0 != keyApp }))
        let apps = named.isEmpty ? [] : try pool.withConnection { try EventStore.apps(named, of: workspace, on: $0) }
        // In the order sent: another workspace's app refused, then a key repeated after its first valid event.
        var keys: Set<String> = []
        var accepted: [EventRecord] = []
        for (index, event) in events {
            if let app = event.app, app != keyApp, !apps.contains(app) {
                let pointer = JSONPointer.appending(items[index].pointer, "app")
                outcomes[index] = .refused(
                    ServiceError.validation([Problem.FieldError(pointer: pointer, detail: "app is not an app of this workspace.")]).problem)
            } else if keys.insert(event.idempotencyKey).inserted {
                outcomes[index] = .accepted(event)
                accepted.append(EventRecord(workspace: workspace, receivedAt: now, event: event))
            } else {
                outcomes[index] = .duplicate(event.idempotencyKey)
            }
        }
        guard self.events.record(accepted) else {
            return .problem(
                .serviceUnavailable(detail: "The event queue is full or closing; nothing was accepted. Retry shortly.", retryAfter: 2))
        }
        let final = outcomes.map { $0 ?? .refused(ServiceError.badRequest("The event was not read.").problem) }
        if !batch, let only = final.first {
            switch only {
            case .refused(let problem): return .problem(problem)
            case .accepted, .duplicate: return .json(Self.result(only).serializedBytes, status: 202)
            }
        }
        return .json(Self.report(final).serializedBytes, status: 202)
    }

    /// `{"accepted", "duplicates", "refused", "results": [...]}`, the results in the order the events were sent.
    static func report(_ outcomes: [Outcome]) -> JSONValue {
        var counts = (0, 0, 0)
        for outcome in outcomes {
            switch outcome {
            case .accepted: counts.0 += 1
            case .duplicate: counts.1 += 1
            case .refused: counts.2 += 1
            }
        }
        return .object([
            JSONMember(key: "accepted", value: .integer(counts.0)),
            JSONMember(key: "duplicates", value: .integer(counts.1)),
            JSONMember(key: "refused", value: .integer(counts.2)),
            JSONMember(key: "results", value: .array(outcomes.map(result))),
        ])
    }

    /// One event's entry: `{"status": "accepted", "idempotencyKey", "kind"}`,
    /// `{"status": "duplicate", "idempotencyKey"}` or `{"status": "refused", "error": <problem>}`.
    static func result(_ outcome: Outcome) -> JSONValue {
        switch outcome {
        case .accepted(let event):
            return .object([
                JSONMember(key: "status", value: .string("accepted")),
                JSONMember(key: "idempotencyKey", value: .string(event.idempotencyKey)),
                JSONMember(key: "kind", value: .string(event.kind.rawValue)),
            ])
        case .duplicate(let key):
            return .object([JSONMember(key: "status", value: .string("duplicate")), JSONMember(key: "idempotencyKey", value: .string(key))])
        case .refused(let problem):
            return .object([
                JSONMember(key: "status", value: .string("refused")),
                JSONMember(key: "error", value: (try? JSONValue.parse(bytes: problem.jsonBytes)) ?? .null),
            ])
        }
    }
}
