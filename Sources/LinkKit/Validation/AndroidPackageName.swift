/// An Android application ID (package name): two or more dot-separated parts, each starting with a letter and
/// made of ASCII letters, digits and `_` (Java package rules as Android applies them), e.g. `com.example.app`.
public struct AndroidPackageName: Sendable, Hashable, CustomStringConvertible {
    /// The package name.
    public let rawValue: String

    /// Validates a package name.
    /// - Parameter rawValue: the text.
    /// - Throws: `LinkKitError` `.invalidPackageName` naming the rule broken.
    public init(_ rawValue: String) throws(LinkKitError) {
        let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else {
            throw LinkKitError(
                .invalidPackageName, "package name '\(rawValue)' needs at least two parts separated by '.', like com.example.app")
        }
        for part in parts {
            guard let first = part.first else {
                throw LinkKitError(.invalidPackageName, "package name '\(rawValue)' has an empty part")
            }
            guard first.isASCII, first.isLetter else {
                throw LinkKitError(.invalidPackageName, "package name '\(rawValue)': part '\(part)' must start with a letter")
            }
            guard part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw LinkKitError(
                    .invalidPackageName, "package name '\(rawValue)': part '\(part)' may only contain letters, digits and '_'")
            }
        }
        self.rawValue = rawValue
    }

    /// The package name.
    public var description: String { rawValue }
}
