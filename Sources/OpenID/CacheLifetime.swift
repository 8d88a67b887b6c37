/// How long a discovery document or JWK set is kept: its `Cache-Control: max-age`, held between a floor (a
/// provider saying `no-store` is not asked on every sign-in) and a ceiling (rotated keys are seen within a day
/// even if a provider asks for longer); a response without `max-age` is kept `absent`.
public struct CacheLifetime: Sendable, Equatable {
    public var minimum: Double = 60
    public var maximum: Double = 24 * 3600
    public var absent: Double = 3600

    public init() {}

    /// The seconds to keep a response with `cacheControl`.
    public func seconds(_ cacheControl: String?) -> Double {
        guard let cacheControl else { return absent }
        var seconds: Double?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let trimmed = directive.filter { $0 != " " && $0 != "\t" }
            if trimmed == "no-store" || trimmed == "no-cache" { seconds = 0; break }
            if trimmed.hasPrefix("max-age="), let value = Double(trimmed.dropFirst("max-age=".count)), value.isFinite {
                seconds = value
            }
        }
        return min(max(seconds ?? absent, minimum), maximum)
    }
}
