import Foundation

/// How people's sessions and one-time links behave (docs/PEOPLE.md, "Sessions", "Signing in").
public struct SessionConfiguration: Sendable {
    /// Seconds a session lives without a request (`--session-idle`).
    public var idle: Int = 12 * 3600
    /// Seconds a session lives at most, however busy (`--session-lifetime`).
    public var lifetime: Int = 30 * 86_400
    /// The base one-time links are printed with (`--public-url`: `https://links-admin.example.com`), without a
    /// trailing `/`; nil: `http://localhost:<port>` of `--listen`.
    public var publicURL: String?
    /// Seconds a set-password link of `linkd users create` stays valid.
    public var setPasswordLinkLifetime: Int = 86_400
    /// How passwords are hashed (tests use `PasswordHasher.forTests`).
    public var passwordHasher = PasswordHasher()
    /// Failed sign-ins allowed per account, and per client address, within `throttleWindow` seconds.
    public var failuresPerAccount = 10
    public var failuresPerAddress = 50
    public var throttleWindow = 15 * 60

    public init() {}
}
