/// An app as a link domain sees it: how the association files name it and what it can open.
///
/// A class (immutable, so `Sendable`): every resolution names its app, and a reference is retained once where
/// a struct retained each of its strings and collections, on objects every request thread shares. Equal when
/// every field is.
public final class DomainApp: Sendable, Hashable {
    /// The stored app's id.
    public let id: String
    public let platform: AppPlatform
    /// `TEAMID.bundle.id` for iOS, the package name for Android.
    public let identifier: String
    /// Android signing-certificate SHA-256 fingerprints (upper-case, colon-separated).
    public let fingerprints: [String]
    /// Destination types by name.
    public let destinations: [String: DestinationType]
    /// Store pages for the no-app fallbacks (`https://apps.apple.com/app/id…`, a Play Store URL).
    public let storeURL: String?
    /// Human titles of destination types (for link-preview pages), by destination name.
    public let titles: [String: String]
    /// Preview metadata of destination types (title, description, image), by destination name.
    public let previews: [String: LinkPreview]
    /// The app's URL scheme (`widgets`, lower-case), whose links resolve through the rules of its deciding domain;
    /// also the landing page's "Open in the app".
    public let customScheme: String?
    /// The id of the domain whose rules its custom-scheme links follow, when one was chosen (docs/LINKS.md).
    public let primaryDomainID: String?
    /// The app's name and icon URL, which the landing page shows.
    public let name: String?
    public let iconURL: String?

    public init(
        id: String, platform: AppPlatform, identifier: String, fingerprints: [String] = [], destinations: [DestinationType] = [],
        storeURL: String? = nil, titles: [String: String] = [:], previews: [String: LinkPreview] = [:], customScheme: String? = nil,
        primaryDomainID: String? = nil, name: String? = nil, iconURL: String? = nil
    ) {
        self.id = id
        self.platform = platform
        self.identifier = identifier
        self.fingerprints = fingerprints
        self.destinations = Dictionary(destinations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.storeURL = storeURL
        self.titles = titles
        self.previews = previews
        self.customScheme = customScheme
        self.primaryDomainID = primaryDomainID
        self.name = name
        self.iconURL = iconURL
    }

    public static func == (lhs: DomainApp, rhs: DomainApp) -> Bool {
        lhs === rhs
            || (lhs.id == rhs.id && lhs.platform == rhs.platform && lhs.identifier == rhs.identifier
                && lhs.fingerprints == rhs.fingerprints && lhs.destinations == rhs.destinations && lhs.storeURL == rhs.storeURL
                && lhs.titles == rhs.titles && lhs.previews == rhs.previews && lhs.customScheme == rhs.customScheme
                && lhs.primaryDomainID == rhs.primaryDomainID && lhs.name == rhs.name && lhs.iconURL == rhs.iconURL)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(platform)
        hasher.combine(identifier)
    }
}
