import Foundation
import HTTPServer
import LinkKit
import Postgres

/// One event of `POST /v1/events` read on its own (docs/EVENTS.md, "Sending events"): every error at its pointer
/// under the event's (`/events/3/currency`), so a batch refuses only the events that are wrong.
enum EventInput {
    /// How far ahead of the server's clock an event's `time` may lie (clocks of phones drift).
    static let futureSlack: TimeInterval = 300
    static let namePattern = "^[a-z][a-z0-9_.]{0,63}$"

    /// Whether `name` matches `namePattern`, checked byte by byte (a regular expression per event weighs on the
    /// request threads of a batch).
    static func isName(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), utf8.count <= 64 else { return false }
        return utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    static let fieldNames: Set<String> = ["name", "app", "time", "value", "currency", "idempotencyKey", "visitorId", "clickToken", "url"]

    /// The event `value` at `pointer` holds, or the errors that refuse it.
    static func read(_ value: JSONValue, at pointer: String, now: Date) -> Result<Event, ServiceError> {
        let errors = FieldErrors()
        guard case .object = value else {
            return .failure(
                .validation([Problem.FieldError(pointer: pointer, detail: "An event must be a JSON object, not \(value.typeName).")]))
        }
        var body = JSONObjectReader(value, at: pointer, errors: errors)
        let name = body.string("name", required: true, limit: .memberName)
        if let name, !isName(name) {
            errors.add(
                body.at("name"),
                "name is install, open, reopen or an event name of lower-case letters, digits, _ and . (at most 64), starting with a letter."
            )
        }
        let app = body.string("app", limit: .memberName).flatMap { text -> UUID? in
            guard let id = UUID(uuidString: text) else {
                errors.add(body.at("app"), "app is the id of an app of the workspace (a UUID).")
                return nil
            }
            return id
        }
        var time = now
        if let text = body.string("time", limit: .memberName) {
            switch RFC3339.read(text) {
            case .date(let date) where date > now.addingTimeInterval(futureSlack):
                errors.add(
                    body.at("time"),
                    "time lies in the future: an event is reported after it happened (at most \(Int(futureSlack)) seconds ahead of the server's clock)."
                )
            case .date(let date): time = date
            case let reading: errors.add(body.at("time"), RFC3339.refusal("time", reading))
            }
        }
        let amount = body.integer("value")
        if let amount, amount < 0 { errors.add(body.at("value"), "value is an amount in minor units (cents), zero or more.") }
        let currency = body.string("currency", limit: .memberName)
        if let currency, !Currency.codes.contains(currency) {
            errors.add(body.at("currency"), "currency is an ISO 4217 code in capitals (EUR, USD, JPY), not '\(currency.prefix(20))'.")
        }
        if (amount == nil) != (currency == nil) {
            errors.add(
                body.at(amount == nil ? "value" : "currency"),
                "value and currency go together: an amount in minor units and its ISO 4217 currency.")
        }
        let key = body.string("idempotencyKey", required: true, limit: .keyName)
        let visitor = body.string("visitorId", limit: .keyName)
        let token = body.string("clickToken", limit: .memberName)
        if let token, !ClaimFields.isToken(token) {
            errors.add(body.at("clickToken"), "clickToken is the 32 lower-case hex digits of linkd_token= or /_linkd/claim/.")
        }
        let url = body.string("url", limit: .url)
        if let url, (try? AASAURL(url)) == nil { errors.add(body.at("url"), "url is the absolute URL the app was opened with.") }
        body.finish()
        guard errors.isEmpty, let name, let key else { return .failure(.validation(errors.list)) }
        let kind = Event.Kind(rawValue: name) ?? .named
        return .success(
            Event(
                app: app, kind: kind, name: name, occurredAt: time,
                value: amount, currency: currency, idempotencyKey: key, visitorID: visitor,
                clickTokenHash: token.map(ClickTokens.hash), url: url))
    }
}
