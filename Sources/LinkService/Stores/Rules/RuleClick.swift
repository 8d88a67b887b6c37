import LinkKit

/// A rule's overrides of what its clicks get (`"click": {"behavior": "redirect", "title": …, "description": …,
/// "imageUrl": …}`): the domain's `clickBehavior` and the destination type's preview metadata (docs/LANDING.md).
struct RuleClick: Sendable, Hashable {
    var behavior: ClickBehavior?
    var preview = LinkPreview()

    /// Reads the `click` object at `pointer`; nil for `null`. A `stored` rule's title is kept even when it holds a
    /// bidirectional control, refused in names since it was written (`TextLimit.isName`).
    init?(_ value: JSONValue, at pointer: String, errors: FieldErrors, stored: Bool = false) {
        guard value != .null else { return nil }
        var body = JSONObjectReader(value, at: pointer, errors: errors)
        behavior = ClickBehavior.read(&body, "behavior")
        preview.title = body.string("title", limit: stored ? TextLimit.name.lengthOnly : .name)
        preview.description = body.string("description", limit: .comment)
        preview.imageURL = Validators.httpsURL(body.string("imageUrl", limit: .url), at: body.at("imageUrl"), errors)
        body.finish()
    }

    var json: JSONValue {
        var members: [JSONMember] = []
        if let behavior { members.append(JSONMember(key: "behavior", value: .string(behavior.rawValue))) }
        if let title = preview.title { members.append(JSONMember(key: "title", value: .string(title))) }
        if let description = preview.description { members.append(JSONMember(key: "description", value: .string(description))) }
        if let image = preview.imageURL { members.append(JSONMember(key: "imageUrl", value: .string(image))) }
        return .object(members)
    }
}
