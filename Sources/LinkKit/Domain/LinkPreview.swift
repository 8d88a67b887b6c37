/// What a shared link shows in a preview card and on its landing page: the destination type's metadata, which
/// a rule may override field by field (docs/LANDING.md).
public struct LinkPreview: Sendable, Hashable {
    public var title: String?
    public var description: String?
    /// An `https` URL only (checked when written).
    public var imageURL: String?

    public init(title: String? = nil, description: String? = nil, imageURL: String? = nil) {
        self.title = title
        self.description = description
        self.imageURL = imageURL
    }

    /// This preview with the fields `override` sets replacing its own.
    public func overridden(by override: LinkPreview?) -> LinkPreview {
        guard let override else { return self }
        return LinkPreview(
            title: override.title ?? title, description: override.description ?? description,
            imageURL: override.imageURL ?? imageURL)
    }

    public var isEmpty: Bool { title == nil && description == nil && imageURL == nil }
}
