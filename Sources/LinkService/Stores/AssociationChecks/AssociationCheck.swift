import Foundation
import LinkKit
import Postgres

/// What the association health checks watch (docs/HEALTH.md, "Checks").
enum CheckKind: String, Sendable, CaseIterable {
    /// The link domain's own `/.well-known/` files as the internet fetches them.
    case origin
    /// Apple's CDN copy of the AASA file, the one iOS devices get.
    case appleCDN = "apple_cdn"
    /// Google's Digital Asset Links API, once per Android app (the app's id is the subject).
    case google
}

/// The state of one check. Only `current` is healthy.
enum CheckState: String, Sendable, CaseIterable {
    /// What the outside sees is what linkd serves now.
    case current
    /// What the outside sees is an older version of the domain's files (`detail.version`).
    case stale
    /// What the outside sees is no version linkd recorded (or kept).
    case unknown
    /// The outside has nothing: Apple's CDN answers 404; Google does not list the package or a fingerprint.
    case missing
    /// The origin answers, but not as Apple and Google need: a redirect, another status, another content type,
    /// a file over 128 KB, or not JSON.
    case misconfigured
    /// The check could not run: DNS, connection, TLS, timeout, an answer that is not one (`detail.reason`).
    case failing

    var isHealthy: Bool { self == .current }
}

/// One check's last result as stored (`association_checks`), and since when it has been in its state.
struct AssociationCheck: Sendable {
    let kind: CheckKind
    /// The Android app's id for `google`; empty otherwise.
    let subject: String
    let state: CheckState
    let since: Date
    let checkedAt: Date
    let detail: JSONValue

    var json: JSONValue {
        var members = [JSONMember(key: "check", value: .string(kind.rawValue))]
        if !subject.isEmpty { members.append(JSONMember(key: "app", value: .string(subject))) }
        members += [
            JSONMember(key: "state", value: .string(state.rawValue)),
            JSONMember(key: "healthy", value: .bool(state.isHealthy)),
            JSONMember(key: "since", value: .timestamp(since)),
            JSONMember(key: "checkedAt", value: .timestamp(checkedAt)),
            JSONMember(key: "detail", value: detail),
        ]
        return .object(members)
    }
}

/// A check result to be saved: the state and what was seen.
struct CheckResult: Sendable {
    let kind: CheckKind
    let subject: String
    let state: CheckState
    let detail: JSONValue

    init(_ kind: CheckKind, subject: String = "", _ state: CheckState, _ detail: JSONValue) {
        self.kind = kind
        self.subject = subject
        self.state = state
        self.detail = detail
    }
}

/// A check whose state changed when a result was saved (`AssociationCheckStore.save`): the one place a change is
/// noticed, where events (webhooks) hook in. `from` is nil for a check's first result and `to` nil for a
/// subject that went away (an Android app no longer on the domain).
struct CheckTransition: Sendable, Equatable {
    let domainID: UUID
    let kind: CheckKind
    let subject: String
    let from: CheckState?
    let to: CheckState?
    let at: Date

    /// `{check, app?, from, to}`, as the check's answer and `domain.health.changed` show it.
    var json: JSONValue {
        var members = [JSONMember(key: "check", value: .string(kind.rawValue))]
        if !subject.isEmpty { members.append(JSONMember(key: "app", value: .string(subject))) }
        members += [
            JSONMember(key: "from", value: from.map { .string($0.rawValue) } ?? .null),
            JSONMember(key: "to", value: to.map { .string($0.rawValue) } ?? .null),
        ]
        return .object(members)
    }
}
