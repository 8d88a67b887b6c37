/// Which of a link's pages a click gets; each is rendered once per resolve answer and kept with it
/// (`Resolver.Answer.pages`).
enum LandingPageSlot: Int, CaseIterable {
    case ios, iosInApp, android, androidInApp
    /// A desktop browser: the web fallback's page with the link's QR code.
    case desktop
    /// What bots and link-preview fetchers get (`og:` and `twitter:` tags).
    case preview

    /// The landing page of a phone.
    static func phone(android: Bool, inApp: Bool) -> LandingPageSlot {
        android ? (inApp ? .androidInApp : .android) : (inApp ? .iosInApp : .ios)
    }
}
