/// A column's type, by OID (`pg_type.oid`). Built-in OIDs are fixed (`src/include/catalog/pg_type.dat`);
/// types created at run time (enums, domains, extensions) have other OIDs and decode as text.
public struct PostgresType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let bool = PostgresType(rawValue: 16)
    public static let bytea = PostgresType(rawValue: 17)
    public static let char = PostgresType(rawValue: 18)
    public static let name = PostgresType(rawValue: 19)
    public static let int8 = PostgresType(rawValue: 20)
    public static let int2 = PostgresType(rawValue: 21)
    public static let int4 = PostgresType(rawValue: 23)
    public static let text = PostgresType(rawValue: 25)
    public static let oid = PostgresType(rawValue: 26)
    public static let json = PostgresType(rawValue: 114)
    public static let float4 = PostgresType(rawValue: 700)
    public static let float8 = PostgresType(rawValue: 701)
    public static let unknown = PostgresType(rawValue: 705)
    public static let bpchar = PostgresType(rawValue: 1042)
    public static let varchar = PostgresType(rawValue: 1043)
    public static let date = PostgresType(rawValue: 1082)
    public static let timestamp = PostgresType(rawValue: 1114)
    public static let timestamptz = PostgresType(rawValue: 1184)
    public static let numeric = PostgresType(rawValue: 1700)
    public static let uuid = PostgresType(rawValue: 2950)
    public static let jsonb = PostgresType(rawValue: 3802)
    public static let nameArray = PostgresType(rawValue: 1003)
    public static let int2Array = PostgresType(rawValue: 1005)
    public static let int4Array = PostgresType(rawValue: 1007)
    public static let textArray = PostgresType(rawValue: 1009)
    public static let varcharArray = PostgresType(rawValue: 1015)
    public static let int8Array = PostgresType(rawValue: 1016)

    var isInteger: Bool { self == .int2 || self == .int4 || self == .int8 || self == .oid }
    var isIntegerArray: Bool { self == .int2Array || self == .int4Array || self == .int8Array }
    var isTextArray: Bool { self == .textArray || self == .varcharArray || self == .nameArray }

    public var description: String { "oid \(rawValue)" }
}
