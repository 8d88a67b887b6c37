import CMaxMindDB
import Glibc

/// An operator-supplied MaxMind DB file (GeoLite2 Country, DB-IP Lite Country, or any database whose records have
/// `country.iso_code`), read with libmaxminddb: an IP address to its country's ISO 3166-1 alpha-2 code.
///
/// `@unchecked Sendable`: it owns one `MMDB_s`, opened memory-mapped and only read after `init` (libmaxminddb:
/// "the `MMDB_s` structure is safe to share across threads" once opened, since lookups do not change it), and
/// closed once, in `deinit`.
public final class CountryDatabase: @unchecked Sendable {
    private let mmdb: UnsafeMutablePointer<MMDB_s>
    /// The file, as given.
    public let path: String
    /// The database's own type (`GeoLite2-Country`, `DBIP-Country-Lite`), from its metadata.
    public let databaseType: String

    /// Opens the database at `path`.
    /// - Throws: `GeoIPError` `.unreadable` (no such file, no permission) or `.invalid` (not a MaxMind DB file),
    ///   with libmaxminddb's message.
    public init(path: String) throws(GeoIPError) {
        let mmdb = UnsafeMutablePointer<MMDB_s>.allocate(capacity: 1)
        mmdb.initialize(to: MMDB_s())
        // "MMDB_MODE_MMAP: the file is mmap'ed": nothing is read into memory up front.
        let status = MMDB_open(path, UInt32(MMDB_MODE_MMAP), mmdb)
        guard status == MMDB_SUCCESS else {
            let reason =
                status == MMDB_IO_ERROR || status == MMDB_FILE_OPEN_ERROR
                ? String(cString: strerror(errno)) : String(cString: MMDB_strerror(status))
            // libmaxminddb frees what a failed MMDB_open allocated: only our struct is left.
            mmdb.deallocate()
            throw GeoIPError(status == MMDB_FILE_OPEN_ERROR || status == MMDB_IO_ERROR ? .unreadable : .invalid, path: path, detail: reason)
        }
        self.mmdb = mmdb
        self.path = path
        databaseType = mmdb.pointee.metadata.database_type.map { String(cString: $0) } ?? ""
    }

    deinit {
        MMDB_close(mmdb)
        mmdb.deallocate()
    }

    /// The country of `address` (a numeric IPv4 or IPv6 address; an IPv4-mapped IPv6 one is looked up as IPv4), as
    /// two upper-case letters; nil when the address is not one, or the database has no country for it.
    public func country(of address: String) -> String? {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            return withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { lookup($0) } }
        }
        guard inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            v4.sin_family = sa_family_t(AF_INET)
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: bytes[12..<16]) }
            return withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { lookup($0) } }
        }
        v6.sin6_family = sa_family_t(AF_INET6)
        return withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { lookup($0) } }
    }

    private static let countryPath: [StaticString] = ["country", "iso_code"]
    private static let registeredCountryPath: [StaticString] = ["registered_country", "iso_code"]

    private func lookup(_ address: UnsafePointer<sockaddr>) -> String? {
        var error: Int32 = 0
        // An IPv6 address in an IPv4-only database is MMDB_IPV6_LOOKUP_IN_IPV4_DATABASE_ERROR: no country.
        var result = MMDB_lookup_sockaddr(mmdb, address, &error)
        guard error == MMDB_SUCCESS, result.found_entry else { return nil }
        // GeoLite2 leaves `country` out for some networks (anycast, satellite) but names where they are registered.
        return Self.isoCode(&result.entry, Self.countryPath) ?? Self.isoCode(&result.entry, Self.registeredCountryPath)
    }

    private static func isoCode(_ entry: inout MMDB_entry_s, _ path: [StaticString]) -> String? {
        var data = MMDB_entry_data_s()
        // MMDB_aget_value: the non-variadic MMDB_get_value, the path "a NULL-terminated array of strings".
        let status = path[0].withUTF8Buffer { first in
            path[1].withUTF8Buffer { second in
                first.withMemoryRebound(to: CChar.self) { first in
                    second.withMemoryRebound(to: CChar.self) { second in
                        var keys: [UnsafePointer<CChar>?] = [first.baseAddress, second.baseAddress, nil]
                        return keys.withUnsafeMutableBufferPointer { MMDB_aget_value(&entry, &data, $0.baseAddress) }
                    }
                }
            }
        }
        guard status == MMDB_SUCCESS, data.has_data, data.type == UInt32(MMDB_DATA_TYPE_UTF8_STRING), data.data_size == 2,
            let text = data.utf8_string
        else { return nil }
        // Not NUL-terminated: a pointer into the mapped file, `data_size` bytes long.
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        guard (0..<2).allSatisfy({ bytes[$0] >= UInt8(ascii: "A") && bytes[$0] <= UInt8(ascii: "Z") }) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: 2), as: UTF8.self)
    }
}
