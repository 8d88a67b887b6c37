import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `POST /v1/events` (docs/EVENTS.md): one event or a batch (`{"events": […]}`), each read, checked and attributed on
/// its own. A refused event gets its problem in the report (pointers under `/events/<n>`) and nothing of it is
/// written; an idempotency key already recorded (or repeated in the batch) counts once and says `duplicate`.
///
/// The accepted events of a request are inserted in one statement of one transaction, not queued as hits are: the
/// answer says per event whether its key was new, which only the database's unique key can tell.
struct EventHandlers: EndpointGroup {
    let pool: ConnectionPool
    let auth: Authenticator
    let tokens: ClickTokens
    let attributor: EventAttributor
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
                    problem in `results` (pointers such as `/events/3/currency`) and nothing of it is stored; the others are recorded. An \
                    `idempotencyKey` recorded before counts once (`duplicate`). Every recorded event is attributed by the last-click model of \
                    docs/EVENTS.md: through its click token, the link URL it carries, or the visitor's last attributed event within the \
                    workspace's window (7 days by default); otherwise `none` with the reason. A single event refused is a 422 problem. \
                    Two doors: an API key (`write` scope, editor role), or an app's publishable key as `\(AppEventKeyHandlers.header)` \
                    (`POST /v1/apps/{id}/event-key`), which sends events for its own app only and is rate-limited per key and per \
                    client address (429 with `Retry-After`).
                    """,
                body: "EventBatch", success: .json(200, "EventReport"), errors: [429]
            ) { request in try receive(request) }
        ]
    }

    /// What became of one event.
    enum Outcome {
        case recorded(id: UUID, Event)
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
        if events.contains(where: { $0.event.clickTokenHash != nil }) { tokens.flush() } // a token is claimable once its page is sent
        try pool.withTransaction { connection in
            let apps = try EventStore.apps(Array(Set(events.compactMap(\.event.app))), of: workspace, on: connection)
            let days = try EventStore.windowDays(of: workspace, on: connection)
            // In the order sent: another workspace's app refused, then a key repeated after its first valid event.
            var keys: Set<String> = []
            var valid: [(index: Int, event: Event)] = []
            for (index, event) in events {
                if let app = event.app, !apps.contains(app) {
                    let pointer = JSONPointer.appending(items[index].pointer, "app")
                    outcomes[index] = .refused(
                        ServiceError.validation([Problem.FieldError(pointer: pointer, detail: "app is not an app of this workspace.")])
                            .problem)
                } else if keys.insert(event.idempotencyKey).inserted {
                    valid.append((index, event))
                } else {
                    outcomes[index] = .duplicate(event.idempotencyKey)
                }
            }
            var accepted: [(index: Int, event: Event)] = []
            // In time order, so that a named event finds an install or open of the same batch before it.
            for (index, var event) in valid.sorted(by: { $0.event.occurredAt < $1.event.occurredAt }) {
                try attributor.attribute(&event, workspace: workspace, windowDays: days, on: connection) { visitor, time in
                    accepted.last {
                        $0.event.visitorID == visitor && [.clickToken, .linkURL].contains($0.event.attribution.via)
                            && $0.event.occurredAt <= time
                            && $0.event.occurredAt > time.addingTimeInterval(-Double(days) * 86_400)
                    }.map { ($0.event.attribution, $0.event.occurredAt) }
                }
                accepted.append((index, event))
            }
            let inserted = try EventStore.insert(accepted.map(\.event), workspace: workspace, on: connection)
            for (index, event) in accepted {
                outcomes[index] = inserted[event.idempotencyKey].map { .recorded(id: $0, event) } ?? .duplicate(event.idempotencyKey)
            }
        }
        let final = outcomes.map { $0 ?? .refused(ServiceError.badRequest("The event was not read.").problem) }
        if !batch, let only = final.first {
            switch only {
            case .refused(let problem): return .problem(problem)
            case .recorded, .duplicate: return .json(Self.result(only).serializedBytes)
            }
        }
        return .json(Self.report(final).serializedBytes)
    }

    /// `{"recorded", "duplicates", "refused", "results": [...]}`, the results in the order the events were sent.
    static func report(_ outcomes: [Outcome]) -> JSONValue {
        var counts = (0, 0, 0)
        for outcome in outcomes {
            switch outcome {
            case .recorded: counts.0 += 1
            case .duplicate: counts.1 += 1
            case .refused: counts.2 += 1
            }
        }
        return .object([
            JSONMember(key: "recorded", value: .integer(counts.0)),
            JSONMember(key: "duplicates", value: .integer(counts.1)),
            JSONMember(key: "refused", value: .integer(counts.2)),
            JSONMember(key: "results", value: .array(outcomes.map(result))),
        ])
    }

    /// One event's entry: `{"status": "recorded", "id", "idempotencyKey", "kind", "attribution"}`,
    /// `{"status": "duplicate", "idempotencyKey"}` or `{"status": "refused", "error": <problem>}`.
    static func result(_ outcome: Outcome) -> JSONValue {
        switch outcome {
        case let .recorded(id, event):
            return .object([
                JSONMember(key: "status", value: .string("recorded")),
                JSONMember(key: "id", value: .string(id.canonicalText)),
                JSONMember(key: "idempotencyKey", value: .string(event.idempotencyKey)),
                JSONMember(key: "kind", value: .string(event.kind.rawValue)),
                JSONMember(key: "attribution", value: event.attribution.json),
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
