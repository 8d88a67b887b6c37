import Foundation
import LinkKit

/// A Firebase Dynamic Links Takeout row (`FirebaseLinkRow`) as the body of `POST /v1/links` (docs/LINKS-IMPORT.md):
/// the short link's host and path are the domain and slug; the deep link opens the typed destination the domain's
/// rules give it (resolved as `GET /v1/resolve` resolves it on that domain: iOS apps first, then Android), else it
/// is the link's web page; fallbacks, the social preview, the campaign and the link name carry over; an archived
/// link is imported already expired. Firebase sent a phone to `ifl`, `ipfl` or `afl` instead of the store, so a row
/// with one of them is imported with `skipStore`: the link goes on doing what it did.
enum FirebaseLinkItem {
    /// Each field of the body, named by the Takeout column it comes from.
    static let columns = LinkColumns(columns: [
        ("short link", "/domain"), ("short link", "/slug"), ("link", "/url"), ("link", "/app"), ("link", "/destination"),
        ("ifl", "/fallbacks/ios"), ("ipfl", "/fallbacks/ipad"), ("afl", "/fallbacks/android"), ("ofl", "/fallbacks/desktop"),
        ("st", "/preview/title"), ("sd", "/preview/description"), ("si", "/preview/imageUrl"),
        ("utm_source", "/campaign/source"), ("utm_medium", "/campaign/medium"), ("utm_campaign", "/campaign/campaign"),
        ("utm_term", "/campaign/term"), ("utm_content", "/campaign/content"),
        ("link name", "/name"), ("archived", "/expiresAt"), ("ifl", "/skipStore"),
    ])

    /// The body of `row`'s link, its deep link resolved by `resolver` among the domains of `workspace`; an
    /// archived row expires at its creation time, else `now`.
    static func body(_ row: FirebaseLinkRow, resolver: Resolver, workspace: UUID, now: Date) -> JSONValue {
        var values: [(pointer: String, value: JSONValue)] = [("/domain", .string(row.domain)), ("/slug", .string(row.slug))]
        if let (app, destination) = destination(of: row, resolver: resolver, workspace: workspace) {
            values += [("/app", .string(app)), ("/destination", destination)]
        } else {
            values.append(("/url", .string(row.deepLink)))
        }
        let optional: [(String, String?)] = [
            ("/fallbacks/ios", row.iosFallbackLink), ("/fallbacks/ipad", row.ipadFallbackLink),
            ("/fallbacks/android", row.androidFallbackLink), ("/fallbacks/desktop", row.desktopFallbackLink),
            ("/preview/title", row.socialTitle), ("/preview/description", row.socialDescription),
            ("/preview/imageUrl", row.socialImageLink),
            ("/campaign/source", row.utmSource), ("/campaign/medium", row.utmMedium), ("/campaign/campaign", row.utmCampaign),
            ("/campaign/term", row.utmTerm), ("/campaign/content", row.utmContent), ("/name", row.linkName),
        ]
        for case let (pointer, text?) in optional { values.append((pointer, .string(text))) }
        if row.iosFallbackLink != nil || row.ipadFallbackLink != nil || row.androidFallbackLink != nil {
            values.append(("/skipStore", .bool(true)))
        }
        if row.archived { values.append(("/expiresAt", .timestamp(min(row.createdAt ?? now, now)))) }
        return LinkColumns.body(values)
    }

    /// The app (its id) and typed destination (`{"type", "params"}`) an app opens the deep link at, on the row's
    /// domain, when that domain is one of `workspace`'s and its rules give a valid destination; nil otherwise.
    private static func destination(of row: FirebaseLinkRow, resolver: Resolver, workspace: UUID) -> (String, JSONValue)? {
        guard let deepLink = try? AASAURL(row.deepLink), deepLink.isWeb else { return nil }
        let url = deepLink.universal(on: row.domain).text
        for platform in [AppPlatform.ios, .android] {
            guard let answer = try? resolver.answer(url, platform: platform, workspace: workspace),
                answer.entry?.workspaceID == workspace, let resolution = answer.resolution, resolution.outcome == .openApp,
                let app = resolution.app, case .destination(let type, let params)? = resolution.destination
            else { continue }
            let members = params.map { JSONMember(key: $0.name, value: json($0.value)) }
            return (app.id, .object(["type": .string(type), "params": .object(members)]))
        }
        return nil
    }

    private static func json(_ value: TypedValue) -> JSONValue {
        switch value {
        case .string(let text), .uuid(let text): .string(text)
        case .int(let number): .number(String(number))
        case .bool(let flag): .bool(flag)
        }
    }
}
