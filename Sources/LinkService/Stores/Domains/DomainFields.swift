import LinkKit

/// The members of a domain's settings that are single values, each declared once for the document and for
/// `DomainSettingsRecord`, which reads them (`BodyField`); `defaults`, `substitutionVariables`, `webcredentials`
/// and `appclips` are read by the record itself.
enum DomainFields {
    static let legacyPaths = BodyField.flag("legacyPaths", "Also write the legacy `paths` form that iOS 12 and older read.")
    static let webFallbackURL = BodyField.validated(
        "webFallbackUrl",
        Schema.httpsURLInput
            .described("Where a link that no app opens sends the browser (absolute `https://`)."), limit: .url, Validators.httpsURL)
    static let carryPathToFallback = BodyField.flag(
        "carryPathToFallback",
        "Carry the clicked path (normalised, percent-encoded) and query into the web fallback URL, before its own query (docs/LANDING.md).")
    static let androidDynamicRules = BodyField.flag(
        "androidDynamicRules",
        "Also write the rules into assetlinks.json as Android 15+ dynamic rules (`relation_extensions`, `dynamic_app_link_components`; docs/ANDROID.md)."
    )
    static let clickBehavior = BodyField<ClickBehavior>(
        "clickBehavior",
        schema: Schema.enumeration(ClickBehavior.allCases.map(\.rawValue)).described(
            """
            What a click on an app link gets: `landing` (the landing page: open in the app, get the app, continue to the website; \
            the default for new domains) or `redirect` (302 to the store or the web fallback). Rules can override it (docs/LANDING.md).
            """)
    ) { body, name, _ in ClickBehavior.read(&body, name) }
    static let deferredTTL = BodyField.integer(
        "deferredTTL", in: DomainSettingsRecord.deferredTTLRange,
        "Seconds a landing page's click token can be claimed (default 86400).",
        refusal: "deferredTTL is a number of seconds from 60 to 2592000 (30 days).")
    static let deferredClipboard = BodyField.flag(
        "deferredClipboard",
        """
        iOS: "Get the app" puts the token's claim link on the pasteboard (said on the page), for the app to claim on first launch.
        """)
    static let linkSlugLength = BodyField.integer(
        "linkSlugLength", in: DomainSettingsRecord.linkSlugLengthRange,
        "How many characters a generated link slug has (default 7).", refusal: "linkSlugLength is a number of characters from 4 to 32.")
}
