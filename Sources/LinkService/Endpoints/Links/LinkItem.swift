import Foundation
import HTTPServer
import LinkKit

/// One link of a bulk create or an import, read and checked in memory against the workspace's `LinkTargets`
/// with the rules of `POST /v1/links` (`LinkInput`, `DestinationInput`): a link ready to insert, or the problem
/// that refuses it, its pointers under the item's (`/3/destination/params/id`).
enum LinkItem {
    /// `generate`: the length of the slug to generate (the domain's `linkSlugLength`), nil when the item named its
    /// slug (which refuses it when taken).
    case draft(Link, generate: Int?, pointer: String)
    case refused(Problem)

    /// Reads `value`, the item at `pointer` (`/3`), as the body of `POST /v1/links`.
    init(reading value: JSONValue, at pointer: String, targets: LinkTargets) {
        guard case .object = value else {
            self = .refused(
                ServiceError.validation([.init(pointer: pointer, detail: "A link must be a JSON object, not \(value.typeName).")]).problem)
            return
        }
        let errors = FieldErrors()
        var body = JSONObjectReader(value, at: pointer, errors: errors)
        let input = LinkInput(reading: &body, creating: true)
        body.finish()
        guard errors.isEmpty else {
            self = .refused(ServiceError.validation(errors.list).problem)
            return
        }
        guard let hostname = input.domain, let domain = targets.domains[hostname] else {
            self = Self.refusal(pointer + "/domain", "\(input.domain ?? "") is not a link domain of this workspace.")
            return
        }
        if let app = input.app, let destination = input.destination {
            guard targets.apps.contains(app) else {
                self = Self.refusal(pointer + "/app", "There is no app \(app.canonicalText) in this workspace.")
                return
            }
            let type = destination.type ?? ""
            guard let declared = targets.destinations[app]?[type] else {
                self = Self.refusal(destination.typePointer, "The app has no destination type '\(type)'.")
                return
            }
            _ = destination.check(against: declared, errors)
            guard errors.isEmpty else {
                self = .refused(ServiceError.validation(errors.list).problem)
                return
            }
        }
        for (app, destination) in LinkTargeting.destinations(targets: input.targets, variants: input.variants) {
            let inner = DestinationInput(stored: destination.json, at: pointer + String(destination.typePointer.dropLast("/type".count)))
            guard targets.apps.contains(app) else {
                self = Self.refusal(inner.appPointer, "There is no app \(app.canonicalText) in this workspace.")
                return
            }
            guard let declared = targets.destinations[app]?[inner.type ?? ""] else {
                self = Self.refusal(inner.typePointer, "The app has no destination type '\(inner.type ?? "")'.")
                return
            }
            _ = inner.check(against: declared, errors)
            guard errors.isEmpty else {
                self = .refused(ServiceError.validation(errors.list).problem)
                return
            }
        }
        // The batch gives each link its id (`OrderedIDs`).
        self = .draft(
            input.newLink(on: domain, id: Self.placeholderID), generate: input.slug == nil ? domain.settings.linkSlugLength : nil,
            pointer: pointer)
    }

    /// The id of a draft until the batch gives it its own (`UUID()` reads the system's generator through a file).
    private static let placeholderID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// A 422 with one pointer.
    static func refusal(_ pointer: String, _ detail: String) -> LinkItem {
        .refused(ServiceError.validation([.init(pointer: pointer, detail: detail)]).problem)
    }
}
