import ByteText
import Foundation
import LinkKit
import Observability
import Synchronization

/// Turns a client IP and user agent into the visitor hash of a hit: SHA-256 of a daily salt, the IP and
/// the user agent, truncated to 128 bits (32 hex digits). The IP is never stored.
///
/// The salts are random per UTC day and live in `hit_visitor_salts`, so every node hashes a visitor the
/// same way; the hit writer creates today's and tomorrow's ahead of time, installs them here, and deletes
/// salts two days after their day (after which old hashes cannot be linked to an IP any more). Request
/// threads only read this cache: when a day's salt is not known (the database has been unreachable since
/// before midnight), a node-local random salt is used for that day, so uniques can be counted twice across
/// nodes for that day, but no request ever waits for the database.
public final class VisitorHasher: Sendable {
    private let salts = Mutex<[Int64: String]>([:])

    /// A day's visitor: the key of a kept hash, valid while the day's salt stays the one it was made with.
    private struct Visitor: Hashable, Sendable {
        let day: Int64
        let ip: String
        let userAgent: String?
    }

    /// Hashes of recent visitors (a visitor's requests repeat), with the salt each was made with.
    private let hashes: PerThreadCache<Visitor, (salt: String, hash: String)>

    /// A hasher keeping up to 1,024 visitors' hashes, a table per stripe of `stripes` (the application's; on its
    /// own, one table).
    public init(stripes: StripeAssignment = StripeAssignment(threads: 1)) {
        hashes = PerThreadCache(capacity: 1024, stripes: stripes)
    }

    /// The visitor hash for a request at `time`.
    /// - Parameters:
    ///   - ip: the client address as text: `Request.remoteAddress`, the socket's peer or, when that peer is one of
    ///     `--trusted-proxies`, the client its `X-Forwarded-For` names (docs/DEPLOYMENT.md).
    ///   - userAgent: the `User-Agent` header, if any.
    public func hash(ip: String, userAgent: String?, at time: Date = Date()) -> String {
        let day = Self.day(of: time)
        let salt = salts.withLock { salts in
            if let salt = salts[day] { return salt }
            let salt = Self.randomSalt()
            salts[day] = salt
            return salt
        }
        guard (userAgent?.utf8.count ?? 0) <= UserAgentCache.longestKept else { // the bound of the kept classifications
            return Self.hash(salt: salt, ip: ip, userAgent: userAgent)
        }
        return hashes.value(for: Visitor(day: day, ip: ip, userAgent: userAgent), isCurrent: { $0.salt == salt }) {
            (salt, Self.hash(salt: salt, ip: ip, userAgent: userAgent))
        }.hash
    }

    private static func hash(salt: String, ip: String, userAgent: String?) -> String {
        var input: [UInt8] = []
        input.reserveCapacity(salt.utf8.count + ip.utf8.count + (userAgent?.utf8.count ?? 0) + 2)
        input.append(contentsOf: salt.utf8)
        input.append(UInt8(ascii: "\n"))
        input.append(contentsOf: ip.utf8)
        input.append(UInt8(ascii: "\n"))
        input.append(contentsOf: (userAgent ?? "").utf8)
        return Hex.encode(SHA256.digest(input).prefix(16)) // the first 32 hex digits
    }

    /// Replaces the cached salts by the database's (days since 1970 → salt), keeping none older.
    func install(_ shared: [Int64: String]) {
        salts.withLock { salts in
            let oldest = shared.keys.min() ?? 0
            salts = salts.filter { $0.key >= oldest }
            salts.merge(shared) { _, database in database }
        }
    }

    /// UTC days since 1970.
    static func day(of time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// 32 random bytes as hex (`SystemRandomNumberGenerator` reads `getrandom(2)` on Linux).
    static func randomSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
