import GeoIP
import HTTPServer

extension HitSink {
    /// Records `hit` with the visitor hash of the request that caused it (client address + `User-Agent`,
    /// salted with the day's salt) when the sink counts unique visitors, and the country of that address when it
    /// records countries. The address itself goes nowhere.
    public func record(_ hit: consuming Hit, from request: Request) {
        if hit.visitorHash == nil, let hasher = visitorHasher {
            hit.visitorHash = hasher.hash(ip: request.remoteAddress, userAgent: request.headers["User-Agent"], at: hit.time)
        }
        if hit.country == nil, let countries {
            hit.country = countries.country(of: request.remoteAddress)
        }
        record(hit)
    }
}
