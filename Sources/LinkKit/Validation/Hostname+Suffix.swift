import Foundation

/// Hostname suffixes: the names an operator lets a workspace register (`linkd workspaces allow-suffix`).
extension Hostname {
    /// Validates and normalises a suffix: a host name as `init(_:)` accepts it, without the wildcard form; one
    /// leading dot, as in `.example.com`, is dropped.
    /// - Throws: `LinkKitError` `.invalidHostname` for a wildcard or for anything `init(_:)` rejects.
    public init(suffix text: String) throws(LinkKitError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("*") {
            throw LinkKitError(
                .invalidHostname,
                "hostname suffix '\(text)' must be a domain name such as example.com, without '*.' (it allows every name under it)")
        }
        try self.init(trimmed.hasPrefix(".") ? String(trimmed.dropFirst()) : trimmed)
    }

    /// Whether the stored domain `name` (normalised; a wildcard counts by the host its file is served at) is
    /// `suffix` or under it: `links.example.com`, `example.com` and `*.example.com` are within `example.com`,
    /// `badexample.com` is not.
    public static func name(_ name: String, isWithin suffix: String) -> Bool {
        let root = servingHost(of: name)
        return root == suffix || root.hasSuffix("." + suffix)
    }
}
