import LinkKit

/// A provider's JWK set (RFC 7517 §5): the keys linkd can verify with, in the set's order. Keys of other types,
/// curves, uses or algorithms are left out; a malformed RSA or P-256 signing key refuses the whole set, as a
/// provider publishing one is misconfigured.
public struct JSONWebKeySet: Sendable {
    public let keys: [JSONWebKey]

    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The set in `body` (`{"keys": [...]}`).
    /// - Throws: `OpenIDError` (`.keySet`) for a body that is not such an object, or a malformed key.
    public init(json body: [UInt8]) throws(OpenIDError) {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: body) } catch { throw OpenIDError(.keySet, "the JWK set is not JSON") }
        guard let entries = json["keys"]?.arrayValue else { throw OpenIDError(.keySet, "the JWK set has no keys array") }
        var keys: [JSONWebKey] = []
        for entry in entries {
            if let key = try JSONWebKey.read(entry) { keys.append(key) }
        }
        self.keys = keys
    }

    /// The key a token with `keyID` signed by `algorithm` names: the one with that `kid`; without a `kid`, the
    /// only key of the algorithm (nil when there are several: which one is meant cannot be told).
    public func key(_ keyID: String?, for algorithm: SigningAlgorithm) -> JSONWebKey? {
        if let keyID { return keys.first { $0.keyID == keyID && $0.algorithm == algorithm } }
        let candidates = keys.filter { $0.algorithm == algorithm }
        return candidates.count == 1 ? candidates[0] : nil
    }
}
