import Foundation
import LinkKit

/// An event as a row of `GET /v1/events/export` (written with `CSVWriter`, so a cell a spreadsheet would run starts
/// with `'`).
extension StoredEvent {
    /// The columns of the CSV export, in the order of `csvRow`.
    static let csvHeader = [
        "id", "time", "receivedAt", "kind", "name", "value", "currency", "app", "visitorId", "idempotencyKey", "url",
        "attribution", "reason", "link", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "target",
        "variant", "country", "os",
    ]

    /// The event as a row of the CSV export; an absent value is an empty cell.
    var csvRow: [String] {
        let a = attribution
        return [
            id.canonicalText, RFC3339.string(occurredAt), RFC3339.string(receivedAt), kind.rawValue, name, value.map(String.init) ?? "",
            currency ?? "", app?.canonicalText ?? "", visitorID ?? "", idempotencyKey, url ?? "", a.via.rawValue, a.reason ?? "",
            a.linkID?.canonicalText ?? "", a.utmSource ?? "", a.utmMedium ?? "", a.utmCampaign ?? "", a.utmTerm ?? "",
            a.utmContent ?? "", a.target ?? "", a.variant ?? "", a.country ?? "", a.os ?? "",
        ]
    }
}
