import Foundation
import LinkKit

/// The kinds of event a subscription can receive (docs/WEBHOOKS.md, "Events"); `webhook.test` is sent only to the
/// subscription asked to test, `links.bulk_created` to the `link.created` subscribers that take bulk writes as one.
enum WebhookEventType: String, CaseIterable, Sendable {
    case linkCreated = "link.created"
    case linkUpdated = "link.updated"
    case linkDeleted = "link.deleted"
    case linkClicked = "link.clicked"
    /// A link's (or one of its targets') variants went from none to some (docs/LINKS.md, "Targeting and experiments").
    case linkExperimentStarted = "link.experiment.started"
    /// Those variants were all removed, or one of them was stopped or removed.
    case linkExperimentStopped = "link.experiment.stopped"
    /// A bulk request or import, told to `link.created` subscribers whose `bulkEvents` is `summary`.
    case linksBulkCreated = "links.bulk_created"
    case associationChanged = "domain.association.changed"
    case healthChanged = "domain.health.changed"
    case deferredClaimed = "deferred.claimed"
    /// An install, open or named event was stored (docs/EVENTS.md, "Out"), with what it is attributed to.
    case conversionRecorded = "conversion.recorded"
    case rulesChanged = "rules.changed"
    case webhookDisabled = "webhook.disabled"
    case webhookTest = "webhook.test"

    /// The links a `links.bulk_created` event lists at most.
    static let bulkSummaryLinks = 100

    /// The types a subscription may list.
    static let subscribable = allCases.filter { $0 != .webhookTest && $0 != .linksBulkCreated }
}

/// One event of a workspace: its id (the `webhook-id` of every delivery of it, to every subscription), type, time
/// and data. Delivered as the Standard Webhooks envelope `{"type", "timestamp", "data"}`.
struct WebhookEvent: Sendable {
    let id: String
    let type: WebhookEventType
    let workspace: UUID
    let time: Date
    let data: JSONValue

    init(_ type: WebhookEventType, workspace: UUID, data: JSONValue, time: Date = Date()) {
        self.init(type, id: UUID(), workspace: workspace, data: data, time: time)
    }

    /// An event whose id derives from `id`: what it tells has an id of its own (a stored event's), so the event is the
    /// same whoever queues it.
    init(_ type: WebhookEventType, id: UUID, workspace: UUID, data: JSONValue, time: Date) {
        self.id = "evt_" + id.canonicalText.replacingOccurrences(of: "-", with: "")
        self.type = type
        self.workspace = workspace
        self.time = time
        self.data = data
    }

    /// The body signed and sent.
    var payload: String {
        JSONValue.object([
            "type": .string(type.rawValue),
            "timestamp": .timestamp(time),
            "data": data,
        ]).serialized
    }
}
