/// What uap-core's regexes read from a `User-Agent`: the browser (uap-core's "user agent"), the operating system
/// and the device, named as uap-core names them ("Mobile Safari", "Chrome Mobile", "iOS", "Android", "iPhone").
/// A part no regex matched is uap-core's `Other`, with no version.
public struct ParsedUserAgent: Sendable, Hashable {
    /// A browser or an operating system and its version as the regex found it (each part nil when absent).
    public struct Product: Sendable, Hashable {
        public var family: String
        public var major: String?
        public var minor: String?
        public var patch: String?
        public var patchMinor: String?

        public init(family: String, major: String? = nil, minor: String? = nil, patch: String? = nil, patchMinor: String? = nil) {
            self.family = family
            self.major = major
            self.minor = minor
            self.patch = patch
            self.patchMinor = patchMinor
        }

        /// uap-core's answer when no regex matches.
        public static let other = Product(family: ParsedUserAgent.other)

        /// Whether a regex matched (the family is not `Other`).
        public var isKnown: Bool { family != ParsedUserAgent.other }
    }

    /// The device: its family ("iPhone", "Samsung SM-G991B", "Spider"), brand and model.
    public struct Device: Sendable, Hashable {
        public var family: String
        public var brand: String?
        public var model: String?

        public init(family: String, brand: String? = nil, model: String? = nil) {
            self.family = family
            self.brand = brand
            self.model = model
        }

        public static let other = Device(family: ParsedUserAgent.other)
    }

    /// uap-core's family for what no regex matched.
    public static let other = "Other"

    public var browser: Product
    public var os: Product
    public var device: Device

    public init(browser: Product = .other, os: Product = .other, device: Device = .other) {
        self.browser = browser
        self.os = os
        self.device = device
    }
}
