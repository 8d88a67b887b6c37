import Foundation
import LinkKit
import Postgres

/// The `link.experiment.started` and `link.experiment.stopped` events of a link's write (docs/WEBHOOKS.md): an
/// experiment is the variants of the link itself or of one of its targets (by the target's name). It starts when
/// those go from none to some; it stops when they are all removed (with their target, or the link), and one of its
/// variants stops when it is stopped or removed while others stay. Queued in the write's transaction (`ChangeSet`).
enum LinkExperimentEvents {
    /// One event: its type and its data.
    struct Change: Equatable {
        let type: WebhookEventType
        let data: JSONValue
    }

    /// The events of a link going from `before` (nil: created) to `after` (nil: deleted).
    static func changes(before: Link?, after: Link?) -> [Change] {
        guard let link = after ?? before else { return [] }
        let old = experiments(before), new = experiments(after)
        var changes: [Change] = []
        func change(_ type: WebhookEventType, target: String?, variant: String?, reason: String, variants: [LinkTargeting.Variant]) {
            changes.append(
                Change(
                    type: type,
                    data: .object([
                        "link": .object([
                            "id": .uuid(link.id), "domain": .string(link.hostname), "slug": .string(link.slug),
                            "shortLink": .string(link.shortLink),
                        ]),
                        "target": target.map(JSONValue.string) ?? .null,
                        "variant": variant.map(JSONValue.string) ?? .null,
                        "reason": .string(reason),
                        "variants": .array(variants.map(\.json)),
                    ])))
        }
        for (target, variants) in new where !old.contains(where: { $0.target == target }) {
            change(.linkExperimentStarted, target: target, variant: nil, reason: before == nil ? "created" : "added", variants: variants)
        }
        for (target, variants) in old {
            guard let now = new.first(where: { $0.target == target })?.variants else {
                change(
                    .linkExperimentStopped, target: target, variant: nil, reason: after == nil ? "linkDeleted" : "removed",
                    variants: variants)
                continue
            }
            for variant in variants where !variant.stopped {
                if let kept = now.first(where: { $0.name == variant.name }) {
                    if kept.stopped {
                        change(.linkExperimentStopped, target: target, variant: variant.name, reason: "variantStopped", variants: now)
                    }
                } else {
                    change(.linkExperimentStopped, target: target, variant: variant.name, reason: "variantRemoved", variants: now)
                }
            }
        }
        return changes
    }

    /// Queues the events of the write in `changed` (only those a subscription receives).
    static func queue(before: Link?, after: Link?, workspace: UUID, _ changed: ChangeSet, on connection: Connection) throws {
        for change in changes(before: before, after: after) {
            try changed.event(change.type, workspace: workspace, on: connection) { change.data }
        }
    }

    /// The link's experiments: its own variants (target nil), then each target's, in order; none without variants.
    private static func experiments(_ link: Link?) -> [(target: String?, variants: [LinkTargeting.Variant])] {
        guard let link else { return [] }
        var all: [(target: String?, variants: [LinkTargeting.Variant])] = []
        if let variants = link.variants, !variants.isEmpty { all.append((nil, variants)) }
        for target in link.targets ?? [] {
            if let variants = target.variants, !variants.isEmpty { all.append((target.name, variants)) }
        }
        return all
    }
}
