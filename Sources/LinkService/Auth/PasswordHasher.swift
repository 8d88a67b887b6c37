import CArgon2
import CCrypto
import Synchronization

/// Passwords stored as Argon2id (libargon2, RFC 9106) in the PHC string form, and checked against it.
///
/// The parameters are RFC 9106's second recommended option, within OWASP's for Argon2id: 64 MiB of memory,
/// 3 passes, 1 lane (docs/PEOPLE.md, "Passwords"). A stored hash records its own parameters, so hashes made with
/// other ones still verify.
public struct PasswordHasher: Sendable {
    /// Memory in KiB.
    public var memoryKiB: UInt32 = 64 * 1024
    public var iterations: UInt32 = 3
    public var lanes: UInt32 = 1
    static let saltBytes = 16
    static let hashBytes = 32

    public init() {}

    /// Test parameters: the smallest memory and passes libargon2 takes, so a suite that signs many people in
    /// stays quick. Never for a server.
    public static let forTests = PasswordHasher(memoryKiB: 8, iterations: 1, lanes: 1)

    public init(memoryKiB: UInt32, iterations: UInt32, lanes: UInt32) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.lanes = lanes
    }

    /// The PHC string of `password` with a fresh random salt: `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`.
    public func hash(_ password: String) -> String {
        var salt = [UInt8](repeating: 0, count: Self.saltBytes)
        precondition(RAND_bytes(&salt, Int32(salt.count)) == 1, "RAND_bytes failed")
        let length = argon2_encodedlen(iterations, memoryKiB, lanes, UInt32(salt.count), UInt32(Self.hashBytes), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let status = argon2id_hash_encoded(
            iterations, memoryKiB, lanes, password, password.count, salt, salt.count,
            Self.hashBytes, &encoded, length)
        // Only out-of-range parameters or memory exhaustion fail; both are a broken server, not bad input.
        precondition(status == ARGON2_OK.rawValue, "argon2id_hash_encoded failed: status \(status)")
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `encoded` was made from (libargon2 compares in constant time). A malformed
    /// `encoded` verifies nothing.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let password = Array(password.utf8)
        return argon2id_verify(encoded, password, password.count) == ARGON2_OK.rawValue
    }

    /// Spends the time a verification takes without a stored hash: sign-in answers an unknown email as slowly as
    /// a wrong password (docs/PEOPLE.md, "Signing in").
    public func verifyNothing(_ password: String) {
        _ = verify(password, against: dummy)
    }

    /// A hash with this hasher's parameters, made once, for `verifyNothing`.
    private var dummy: String {
        Self.dummies.withLock { cache in
            let key = "\(memoryKiB),\(iterations),\(lanes)"
            if let made = cache[key] { return made }
            let made = hash("linkd: no such person")
            cache[key] = made
            return made
        }
    }

    private static let dummies = Mutex<[String: String]>([:])
}
