import CLibPQ
import Foundation

/// Where and how to connect: libpq connection keywords and their values.
///
/// Built from a `DATABASE_URL`, either URI form (`postgresql://user:pw@host:5432/db?sslmode=disable`,
/// `postgresql:///db?host=/var/run/postgresql`) or keyword form (`host=/tmp dbname=linkd`).
/// Parsing is libpq's own (`PQconninfoParse`), so every form libpq accepts works and nothing is hand-parsed.
public struct ConnectionParameters: Sendable, CustomStringConvertible {
    /// Keyword/value pairs in libpq's order; only keywords that have a value.
    private var pairs: [(keyword: String, value: String)]

    /// No keyword set: libpq's defaults (and its `PG*` environment variables) decide.
    public init() {
        pairs = []
    }

    /// Parses a connection string.
    /// - Parameter conninfo: a `postgresql://` / `postgres://` URI or a `keyword=value` string.
    /// - Throws: `.invalidParameters` when libpq rejects the string (unknown keyword, bad URI, bad quoting).
    public init(_ conninfo: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        // libpq: "Returns parsed connection options from the provided connection string. [...] If errmsg is
        // not NULL, then *errmsg is set to NULL on success, else to a malloc'd error string explaining the
        // problem. [...] The return value points to an array of PQconninfoOption structures, which ends with
        // an entry having a null keyword pointer. [...] All legal options will be present in the result
        // array, but the PQconninfoOption for any option not present in the connection string will have
        // val set to NULL. [...] free it using PQconninfoFree."
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            let message = errorMessage.map { String(cString: $0) }
            if let errorMessage { PQfreemem(errorMessage) }
            throw PostgresError(.invalidParameters, serverMessage: message ?? "out of memory")
        }
        defer { PQconninfoFree(options) }
        var pairs: [(keyword: String, value: String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                pairs.append((String(cString: keyword), String(cString: value)))
            }
            option += 1
        }
        self.pairs = pairs
    }

    /// The value set for `keyword` (`"dbname"`, `"host"`, `"port"`, `"user"`, ...), or nil.
    public subscript(keyword: String) -> String? {
        pairs.last(where: { $0.keyword == keyword })?.value
    }

    /// A copy with `keyword` set to `value`, e.g. `.setting("dbname", to: "linkd_test_3")`.
    public func setting(_ keyword: String, to value: String) -> ConnectionParameters {
        var copy = self
        if let index = copy.pairs.firstIndex(where: { $0.keyword == keyword }) {
            copy.pairs[index].value = value
        } else {
            copy.pairs.append((keyword, value))
        }
        return copy
    }

    /// All keyword/value pairs that are set.
    public var keywords: [String: String] {
        Dictionary(pairs.map { ($0.keyword, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Keyword form without the password, safe for logs: `host=/tmp port=5432 dbname=linkd user=postgres`.
    public var description: String {
        pairs.filter { $0.keyword != "password" }
            .map { "\($0.keyword)=\(Self.quote($0.value))" }
            .joined(separator: " ")
    }

    /// Keyword form including the password, for handing to another libpq user (`psql`, a child process).
    public var conninfo: String {
        pairs.map { "\($0.keyword)=\(Self.quote($0.value))" }.joined(separator: " ")
    }

    /// Quotes a value for the keyword form: single quotes, with `\` and `'` escaped (libpq manual, 34.1.1.1).
    static func quote(_ value: String) -> String {
        if !value.isEmpty, !value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) { return value }
        return "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// Seconds a connection attempt may take when the string sets no `connect_timeout` (libpq's own default
    /// is to wait forever: a server that accepts and never answers, such as a stopped postmaster, would hold
    /// the connecting thread for good; libpq's minimum is 2).
    public static let defaultConnectTimeout = 3

    /// The pairs handed to `PQconnectdbParams`, with the session settings the decoders rely on:
    /// UTF-8 client encoding, ISO dates and UTC time zone (so `timestamptz` text is `2026-01-02 03:04:05.123456+00`),
    /// and `connect_timeout` unless the string sets one.
    var connectPairs: [(keyword: String, value: String)] {
        var result = pairs.filter { $0.keyword != "client_encoding" && $0.keyword != "options" }
        if self["connect_timeout"] == nil { result.append(("connect_timeout", String(Self.defaultConnectTimeout))) }
        result.append(("client_encoding", "UTF8"))
        let session = "-c DateStyle=ISO -c TimeZone=UTC -c IntervalStyle=postgres -c extra_float_digits=3"
        if let options = self["options"], !options.isEmpty {
            result.append(("options", options + " " + session))
        } else {
            result.append(("options", session))
        }
        return result
    }

    /// Calls `body` with NUL-terminated keyword and value arrays, valid only during the call.
    func withKeywordArrays<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let list = connectPairs
        var keywords: [UnsafeMutablePointer<CChar>?] = list.map { strdup($0.keyword) }
        var values: [UnsafeMutablePointer<CChar>?] = list.map { strdup($0.value) }
        keywords.append(nil)
        values.append(nil)
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let constKeywords = keywords.map { $0.map { UnsafePointer($0) } }
        let constValues = values.map { $0.map { UnsafePointer($0) } }
        return constKeywords.withUnsafeBufferPointer { k in
            constValues.withUnsafeBufferPointer { v in body(k.baseAddress!, v.baseAddress!) }
        }
    }
}
