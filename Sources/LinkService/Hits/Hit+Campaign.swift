import ByteText
import Foundation

extension Hit {
    /// The campaign a tap came from: the five `utm_*` fields, as the URL tapped carries them in its query
    /// (`?utm_source=newsletter&utm_campaign=spring`) or as a stored link declares them (issue 29).
    ///
    /// An immutable class: a link's campaign is made once and every hit of that link shares it (one reference in
    /// the hit, one retain per copy, no per-request allocation); a hit without a campaign holds nil.
    ///
    /// Every value is text as the tap meant it: percent-decoded with `+` as a space (form encoding, as the request's
    /// query items are read), NUL bytes left out, and cut to `maxFieldBytes` bytes of UTF-8 at a character boundary,
    /// so that the rollups' key stays within PostgreSQL's index row limit whatever a URL carries. An empty value is
    /// no value.
    public final class Campaign: Sendable, Hashable, CustomStringConvertible {
        /// A field, named as its query parameter, its `hits` and rollup column, its analytics dimension and filter.
        public enum Field: String, Sendable, CaseIterable {
            case source = "utm_source", medium = "utm_medium", campaign = "utm_campaign", term = "utm_term", content = "utm_content"
        }

        /// The longest value kept, in UTF-8 bytes (a link's own fields are at most 200 characters: ASCII ones fit whole).
        public static let maxFieldBytes = 200
        /// What the rollups keep instead of a value once a workspace's hour holds its share of campaigns (`HitCampaignLimit`).
        public static let overflowValue = "(other)"

        public let source: String?
        public let medium: String?
        public let campaign: String?
        public let term: String?
        public let content: String?
        /// The fields' hash, computed once: the hit writer hashes a hit's campaign into its rollup key
        /// (`HitBatchSummary`), and a link's campaign is one object shared by all its hits.
        private let fieldsHash: Int

        /// A campaign of these values, each cleaned and cut as the type's documentation says (empty ones nil).
        public init(source: String? = nil, medium: String? = nil, campaign: String? = nil, term: String? = nil, content: String? = nil) {
            self.source = source.flatMap { Self.kept($0) }
            self.medium = medium.flatMap { Self.kept($0) }
            self.campaign = campaign.flatMap { Self.kept($0) }
            self.term = term.flatMap { Self.kept($0) }
            self.content = content.flatMap { Self.kept($0) }
            fieldsHash = Self.hash(self.source, self.medium, self.campaign, self.term, self.content)
        }

        /// A campaign of values already kept (`kept(_:)`).
        private init(kept source: String?, _ medium: String?, _ campaign: String?, _ term: String?, _ content: String?) {
            self.source = source
            self.medium = medium
            self.campaign = campaign
            self.term = term
            self.content = content
            fieldsHash = Self.hash(source, medium, campaign, term, content)
        }

        private static func hash(_ source: String?, _ medium: String?, _ campaign: String?, _ term: String?, _ content: String?) -> Int {
            var hasher = Hasher()
            hasher.combine(source)
            hasher.combine(medium)
            hasher.combine(campaign)
            hasher.combine(term)
            hasher.combine(content)
            return hasher.finalize()
        }

        public subscript(field: Field) -> String? {
            switch field {
            case .source: source
            case .medium: medium
            case .campaign: campaign
            case .term: term
            case .content: content
            }
        }

        /// Whether no field has a value.
        public var isEmpty: Bool { source == nil && medium == nil && campaign == nil && term == nil && content == nil }

        public var description: String {
            Field.allCases.compactMap { field in self[field].map { "\(field.rawValue)=\($0)" } }.joined(separator: "&")
        }

        public static func == (a: Campaign, b: Campaign) -> Bool {
            a === b
                || (a.source == b.source && a.medium == b.medium && a.campaign == b.campaign && a.term == b.term && a.content == b.content)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(fieldsHash)
        }

        /// This campaign with every value replaced by `overflowValue` (what the rollups count a campaign beyond a
        /// workspace's share of an hour as).
        var overflowed: Campaign {
            func other(_ value: String?) -> String? { value == nil ? nil : Self.overflowValue }
            return Campaign(
                source: other(source), medium: other(medium), campaign: other(campaign), term: other(term), content: other(content))
        }

        /// The campaign of a tap: the `utm_*` items of the URL's raw `query`, and for the fields it does not carry,
        /// `link`'s (the stored link's own campaign). The URL's query wins field by field, as it is the more
        /// specific (a link shared with `?utm_source=twitter` was tapped from there, whatever source the link was
        /// made for). Of an item repeated, the first counts.
        ///
        /// `link` itself, allocating nothing, when the query has no item whose name starts with `utm_` (nearly every
        /// request): the query is only scanned for one.
        static func of(query: String?, link: Campaign?) -> Campaign? {
            guard var query, query.utf8.count >= 5 else { return link }
            let found: Campaign? = query.withUTF8 { bytes in
                guard mentionsUTM(bytes) else { return nil }
                var values: (String?, String?, String?, String?, String?) = (nil, nil, nil, nil, nil)
                QueryString.forEachItem(bytes) { name, value in
                    guard let value, !value.isEmpty, let field = field(named: name) else { return }
                    // `text` is nil for a value of NUL bytes only: the item is then as good as empty.
                    switch field {
                    case .source: if values.0 == nil { values.0 = text(value) }
                    case .medium: if values.1 == nil { values.1 = text(value) }
                    case .campaign: if values.2 == nil { values.2 = text(value) }
                    case .term: if values.3 == nil { values.3 = text(value) }
                    case .content: if values.4 == nil { values.4 = text(value) }
                    }
                }
                guard values.0 != nil || values.1 != nil || values.2 != nil || values.3 != nil || values.4 != nil else { return nil }
                return Campaign(
                    kept: values.0 ?? link?.source, values.1 ?? link?.medium, values.2 ?? link?.campaign,
                    values.3 ?? link?.term, values.4 ?? link?.content)
            }
            return found ?? link // a query whose `utm_` items were all empty adds nothing
        }

        /// Whether an item's name starts with `utm_`: at the start of the query or after a `&`.
        private static func mentionsUTM(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            while index + 4 <= bytes.count {
                if bytes[index] == UInt8(ascii: "u"), index == 0 || bytes[index - 1] == UInt8(ascii: "&"),
                    bytes[index + 1] == UInt8(ascii: "t"), bytes[index + 2] == UInt8(ascii: "m"), bytes[index + 3] == UInt8(ascii: "_")
                {
                    return true
                }
                index += 1
            }
            return false
        }

        /// The field an item's raw name is (exactly `utm_source`, …, as written: not decoded, case-sensitive).
        /// Compared as bytes, told apart by length and the letter after `utm_`, without making a `String` of each
        /// name (bench/hits/README.md has what that saves).
        private static func field(named name: UnsafeBufferPointer<UInt8>) -> Field? {
            guard name.count >= 8, name.count <= 12, name[3] == UInt8(ascii: "_") else { return nil }
            let (field, spelled): (Field, StaticString)
            switch (name.count, name[4]) {
            case (10, UInt8(ascii: "s")): (field, spelled) = (.source, "utm_source")
            case (10, UInt8(ascii: "m")): (field, spelled) = (.medium, "utm_medium")
            case (12, UInt8(ascii: "c")): (field, spelled) = (.campaign, "utm_campaign")
            case (8, UInt8(ascii: "t")): (field, spelled) = (.term, "utm_term")
            case (11, UInt8(ascii: "c")): (field, spelled) = (.content, "utm_content")
            default: return nil
            }
            return memcmp(spelled.utf8Start, name.baseAddress!, name.count) == 0 ? field : nil
        }

        /// A raw value decoded (`%XX`, `+` as a space) and kept (`kept(_:)`); nil when that leaves nothing.
        private static func text(_ value: UnsafeBufferPointer<UInt8>) -> String? {
            var nul = false
            let text = Percent.decodedText(value, plusAsSpace: true, noticingNUL: &nul)
            return kept(text, hasNUL: nul)
        }

        /// `value` without NUL bytes, cut to `maxFieldBytes` at a character boundary; nil when empty.
        private static func kept(_ value: String, hasNUL: Bool? = nil) -> String? {
            let value = (hasNUL ?? Hit.hasNUL(value)) ? Hit.clean(value) : value
            guard !value.isEmpty else { return nil }
            guard value.utf8.count > maxFieldBytes else { return value }
            let utf8 = Array(value.utf8)
            var end = maxFieldBytes
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 } // not inside a character's bytes
            return String(decoding: utf8[..<end], as: UTF8.self)
        }

        /// A filter's value as hits keep it (cut alike), so a value longer than that still finds them.
        static func keptValue(_ value: String) -> String? { kept(value) }
    }
}
