import Foundation
import Postgres

/// The order of a list of links (`GET /v1/links?sort=`, and the export): a key and a direction, `id` breaking ties,
/// so pages follow one another by keyset whatever the key.
enum LinkOrder: String, CaseIterable, Sendable {
    case created, newest = "-created", slug, slugDescending = "-slug", clicks, clicksDescending = "-clicks"

    /// Newest last, as every list of the API.
    static let `default` = LinkOrder.created

    private var descending: Bool { rawValue.hasPrefix("-") }

    /// The column compared: slugs byte by byte (`COLLATE "C"`), the same order on every server.
    private var column: String {
        switch self {
        case .created, .newest: "created_at"
        case .slug, .slugDescending: "slug COLLATE \"C\""
        case .clicks, .clicksDescending: "clicks"
        }
    }

    /// A cursor's key as a bind of `column`'s type: the cursor's text past this order's name. Nil when the cursor
    /// was written for another order.
    func bind(_ key: String) -> (any PostgresEncodable)? {
        switch self {
        case .created: return Int64(key)
        case .slug, .slugDescending, .clicks, .clicksDescending, .newest:
            guard key.hasPrefix(rawValue + "=") else { return nil }
            let value = String(key.dropFirst(rawValue.count + 1))
            switch self {
            case .slug, .slugDescending: return value
            default: return Int64(value)
            }
        }
    }

    /// `link`'s key in a cursor: `created_at` in µs for the default order (the cursor every list writes), else
    /// the order's name and the value.
    func key(of link: Link) -> String {
        switch self {
        case .created: String(link.sortMicros)
        case .newest: rawValue + "=" + String(link.sortMicros)
        case .slug, .slugDescending: rawValue + "=" + link.slug
        case .clicks, .clicksDescending: rawValue + "=" + String(link.clicks)
        }
    }

    /// The keyset condition after the row `$key`, `$id`, and the `ORDER BY`.
    func sql(key: Int, id: Int) -> (after: String, orderBy: String) {
        let value =
            switch self {
            case .created, .newest: "timestamptz 'epoch' + $\(key)::int8 * interval '1 microsecond'"
            case .slug, .slugDescending: "$\(key)::text COLLATE \"C\""
            case .clicks, .clicksDescending: "$\(key)::int8"
            }
        let direction = descending ? "DESC" : "ASC"
        let type = self == .slug || self == .slugDescending ? "text" : "int8"
        return (
            "($\(key)::\(type) IS NULL OR (\(column), id) \(descending ? "<" : ">") (\(value), $\(id)::uuid))",
            "\(column) \(direction), id \(direction)"
        )
    }
}
