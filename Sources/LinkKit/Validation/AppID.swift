/// An app ID as AASA files write it: `<team ID>.<bundle ID>`, e.g. `ABCDE12345.com.example.app` (A3, A7).
public struct AppID: Sendable, Hashable, CustomStringConvertible {
    /// The team ID (prefix).
    public let teamID: TeamID
    /// The bundle ID.
    public let bundleID: BundleID

    /// Combines a team ID and a bundle ID.
    /// - Parameters:
    ///   - teamID: the prefix.
    ///   - bundleID: the bundle ID.
    public init(teamID: TeamID, bundleID: BundleID) {
        self.teamID = teamID
        self.bundleID = bundleID
    }

    /// Validates an app ID.
    /// - Parameter rawValue: the text, e.g. `ABCDE12345.com.example.app`.
    /// - Throws: `LinkKitError` `.invalidAppID` when there is no `.`, `.invalidTeamID` or `.invalidBundleID` for a bad part.
    public init(_ rawValue: String) throws(LinkKitError) {
        guard let dot = rawValue.firstIndex(of: "."), dot != rawValue.startIndex else {
            throw LinkKitError(.invalidAppID, "app ID '\(rawValue)' must be <team ID>.<bundle ID>, like ABCDE12345.com.example.app")
        }
        teamID = try TeamID(String(rawValue[..<dot]))
        bundleID = try BundleID(String(rawValue[rawValue.index(after: dot)...]))
    }

    /// `<team ID>.<bundle ID>`.
    public var description: String { "\(teamID.rawValue).\(bundleID.rawValue)" }
}
