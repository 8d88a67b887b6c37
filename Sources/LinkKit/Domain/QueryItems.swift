/// Splits a raw URL query into items the way Foundation's `URLQueryItem` does: `&`-separated,
/// `name=value`, names and values percent-decoded (`+` is left alone, as in RFC 3986).
enum QueryItems {
    static func split(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            guard let equals = item.firstIndex(of: "=") else { return (PercentDecoding.decode(String(item)), "") }
            return (PercentDecoding.decode(String(item[..<equals])), String(item[item.index(after: equals)...]))
        }
    }

    static func name(_ a: String, equals b: String, caseSensitive: Bool) -> Bool {
        caseSensitive ? a == b : a.lowercased() == b.lowercased()
    }
}
