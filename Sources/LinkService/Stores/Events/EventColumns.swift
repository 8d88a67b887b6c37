import Foundation
import Postgres

/// Every stored field of an event as the columns of `events`, read off the `Codable` keys of `Event` and
/// `EventAttribution` (the attribution's fields flattened beside the event's): what the writer's `EventCopyData` must
/// fill (a test holds it to these, so a field added to either and not written fails), and how a visitor's last click
/// is read back with no change here. A key's column is its snake case (`visitorID` → `visitor_id`, `utmSource` →
/// `utm_source`) but for the few `renamed`.
enum EventColumns {
    /// Keys whose column is not their snake case.
    static let renamed = ["app": "app_id", "value": "value_minor", "via": "attribution", "reason": "unattributed_reason"]

    /// The columns of an event, in the order of its `Codable` keys.
    static let names: [String] = {
        let encoder = FieldEncoder()
        try? Event(kind: .named, name: "x", occurredAt: Date(), idempotencyKey: "x").encode(to: encoder)
        return encoder.fields.map { column(ofKey: $0.key) }
    }()

    /// The column of a `Codable` key.
    static func column(ofKey key: String) -> String {
        if let name = renamed[key] { return name }
        var column = ""
        var previousUpper = false
        for character in key {
            if character.isUppercase {
                if !previousUpper { column.append("_") }
                column.append(contentsOf: character.lowercased())
                previousUpper = true
            } else {
                column.append(character)
                previousUpper = false
            }
        }
        return column
    }

    /// Decodes an `EventAttribution` from a stored row as JSON (`row_to_json`): its columns mapped back to the keys.
    static func attribution(fromRow json: String) throws -> EventAttribution {
        let decoder = JSONDecoder()
        let keys = Dictionary(uniqueKeysWithValues: attributionKeys.map { (column(ofKey: $0), $0) })
        decoder.keyDecodingStrategy = .custom { path in
            let last = path.last!
            return RowKey(stringValue: keys[last.stringValue] ?? last.stringValue)
        }
        return try decoder.decode(EventAttribution.self, from: Data(json.utf8))
    }

    /// `EventAttribution`'s keys.
    private static let attributionKeys: [String] = {
        let encoder = FieldEncoder()
        try? EventAttribution.none("x").encode(to: encoder)
        return encoder.fields.map(\.key)
    }()

    private struct RowKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// An `Encoder` that lists an event's fields as (key, text), nested structures flattened, nil kept as NULL
/// (synthesized `Codable` skips nil optionals through `encodeIfPresent`, which `FieldContainer` does not).
private final class FieldEncoder: Encoder {
    var fields: [(key: String, text: String?)] = []
    /// The key a single value is encoded under (an enum's raw value, a nested single value).
    var currentKey = ""
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func put(_ key: String, _ text: String?) {
        fields.append((key, text))
    }

    /// Adds `value` under `key`: its text when it is a value a column holds, else its own fields.
    func add<T: Encodable>(_ key: String, _ value: T) throws {
        switch value {
        case let text as String: put(key, text)
        case let date as Date: put(key, date.postgresText)
        case let id as UUID: put(key, id.canonicalText)
        case let number as any BinaryInteger: put(key, "\(number)")
        case let flag as Bool: put(key, flag ? "true" : "false")
        case let number as Double: put(key, number.postgresText)
        case let raw as any RawRepresentable:
            put(key, raw.rawValue as? String ?? "\(raw.rawValue)")
        default:
            currentKey = key
            try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FieldContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("an event field is a value or a structure of values, not a list")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleField(encoder: self) }
}

private struct FieldContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FieldEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.put(key.stringValue, nil) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.add(key.stringValue, value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encoder.add(key.stringValue, value) } else { encoder.put(key.stringValue, nil) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresent(value as String?, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresent(value as Bool?, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresent(value as Double?, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresent(value as Int?, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value as Int32?, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value as Int64?, key) }

    private mutating func encodeIfPresent<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encoder.add(key.stringValue, value) } else { encoder.put(key.stringValue, nil) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FieldContainer<NestedKey>(encoder: encoder))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

private struct SingleField: SingleValueEncodingContainer {
    let encoder: FieldEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.put(encoder.currentKey, nil) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.add(encoder.currentKey, value) }
}
