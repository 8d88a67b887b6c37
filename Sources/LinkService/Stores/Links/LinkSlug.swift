import ByteText

/// A link's slug: the path after the domain, one or more segments of RFC 3986 unreserved characters (`[A-Za-z0-9._~-]`)
/// joined by `/`, compared exactly. Given by the caller (checked by `problem`) or generated (`random`).
enum LinkSlug {
    /// The first path segments the service serves itself on every host: a link there would never be reached. They
    /// are the routes' first segments and the claim links' (`ClickHandler.claimPath`); the router refuses to start
    /// with a route whose first segment is not here (`RouterBuilder.add(_:auth:)`), and `RouteDeclarationTests`
    /// holds the two equal.
    static let reserved: Set<String> = [
        ".well-known", "apple-app-site-association", "v1", "console", "_linkd", "openapi.json", "healthz", "readyz", "metrics",
    ]
    /// What a generated slug is drawn from: letters and digits without look-alikes (0/O, 1/l/I, i, o).
    static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ".utf8)

    /// What `problem` accepts, for the document: segments of slug characters, none `.` or `..`, the first not a
    /// reserved one (in any case).
    static let pattern: String = {
        let segment = "(?!\\.\\.?(/|$))[A-Za-z0-9._~-]+"
        let reservedNames = reserved.sorted().map { name in
            name.map { character -> String in
                if character.isLetter { return "[\(character.lowercased())\(character.uppercased())]" }
                return character == "." ? "\\." : String(character)
            }.joined()
        }
        return "^(?!(\(reservedNames.joined(separator: "|")))(/|$))\(segment)(/\(segment))*$"
    }()

    /// Why `slug` cannot be a link's slug, or nil when it can.
    static func problem(_ slug: String) -> String? {
        if slug.isEmpty { return "A slug cannot be empty." }
        let segments = slug.split(separator: "/", omittingEmptySubsequences: false)
        for segment in segments {
            if segment.isEmpty { return "A slug cannot start or end with '/' or hold '//'." }
            if segment == "." || segment == ".." { return "A slug cannot hold a '.' or '..' segment." }
            if !segment.utf8.allSatisfy(Percent.isUnreserved) {
                return "A slug holds letters, digits and . _ ~ - only, in segments joined by '/'."
            }
        }
        // Case-insensitively: a proxy or a user may fold the case of what the service serves.
        if let first = segments.first, reserved.contains(first.lowercased()) {
            return "'\(first)' is served by linkd itself; a slug cannot start with it."
        }
        return nil
    }

    /// The slug a request path could be a link at (`/spring24` → `spring24`): nil when no link can be there, without
    /// looking (the root, bytes no slug holds; the lookup compares exactly).
    static func candidate(path: String) -> String? {
        let bytes = path.utf8
        guard bytes.count > 1, bytes.count <= 201, bytes.first == UInt8(ascii: "/"),
            bytes.dropFirst().allSatisfy({ $0 == UInt8(ascii: "/") || Percent.isUnreserved($0) })
        else { return nil }
        return String(path.dropFirst())
    }

    /// A slug of `length` characters from `alphabet`, drawn with the system's generator, not one `problem` refuses.
    static func random(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let slug = String(decoding: bytes, as: UTF8.self)
            if problem(slug) == nil { return slug }
        }
    }
}
