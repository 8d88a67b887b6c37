import Foundation
import GeoIP
import HTTPServer
import LinkKit
import Postgres

/// The visitor's context a resolve caller passes for a targeted link (docs/LINKS.md, "Targeting and experiments"):
/// read the same way from `GET /v1/resolve`'s query and `POST /v1/resolve`'s body, so both answer a targeted link
/// alike.
struct ResolveVisitorContext {
    /// A two-letter code or `unknown`; nil: the caller's address's country.
    var country: String?
    /// An `Accept-Language` value; nil: the request's header.
    var language: String?
    var visitorID: String?
    var app: UUID?
    var osVersion: LinkTargeting.OSVersion?

    static let countryPattern = "^([A-Za-z]{2}|unknown)$"
    static let osVersionPattern = "^[0-9]{1,6}(\\.[0-9]{1,6}){0,2}$"

    static let countryDescription =
        "The visitor's country (ISO 3166-1 alpha-2, or `unknown`) for a targeted link; default: the caller's address's."
    static let languageDescription =
        "The visitor's languages (an `Accept-Language` value, such as `de-AT,en;q=0.5`) for a targeted link; default: the request's."
    static let visitorIDDescription =
        "The visitor's stable id: the key of their variant in a targeted link's experiment (the same id keeps the same variant)."
    static let appDescription = "The app that asks (for targets with an `apps` condition)."
    static let osVersionDescription =
        "The version of the visitor's OS (`17`, `16.4`, `14.0.1`) on the platform asked, for targets with a version range; without it a range never holds."

    /// The members of `POST /v1/resolve`'s body that carry the context.
    static var bodyMembers: [Schema.Property] {
        [
            .optional("country", Schema.string(pattern: countryPattern).described(countryDescription)),
            .optional("language", Schema.string(maxLength: 200).described(languageDescription)),
            .optional("visitorId", Schema.string(minLength: 1, maxLength: 200).described(visitorIDDescription)),
            .optional("app", Schema.uuid.described(appDescription)),
            .optional("osVersion", Schema.string(pattern: osVersionPattern).described(osVersionDescription)),
        ]
    }

    /// The context in a `POST /v1/resolve` body; what is wrong goes to `body`'s errors at its pointer.
    init(body: inout JSONObjectReader) {
        if let text = body.string("country") {
            if Self.isCountry(text) { country = text } else { body.errors.add(body.at("country"), Self.countryProblem) }
        }
        if let text = body.string("language") {
            if text.utf8.count <= 200 { language = text } else { body.errors.add(body.at("language"), Self.languageProblem) }
        }
        if let text = body.string("visitorId") {
            if (1...200).contains(text.utf8.count) {
                visitorID = text
            } else {
                body.errors.add(body.at("visitorId"), Self.visitorIDProblem)
            }
        }
        if let text = body.string("app") {
            if let id = UUID.canonical(text) ?? UUID(uuidString: text) {
                app = id
            } else {
                body.errors.add(body.at("app"), Self.appProblem)
            }
        }
        if let text = body.string("osVersion") {
            if let version = LinkTargeting.OSVersion(text) {
                osVersion = version
            } else {
                body.errors.add(body.at("osVersion"), Self.osVersionProblem)
            }
        }
    }

    /// The context in `GET /v1/resolve`'s query (each parameter's length already checked against its schema).
    /// - Throws: `ServiceError.badRequest` for a `country`, `visitorId`, `app` or `osVersion` that is not one, as
    ///   `POST` refuses them.
    init(country: String?, language: String?, visitorID: String?, app: String?, osVersion: String?) throws {
        if let country, !Self.isCountry(country) { throw ServiceError.badRequest(Self.countryProblem) }
        if let visitorID, visitorID.isEmpty { throw ServiceError.badRequest(Self.visitorIDProblem) }
        self.country = country
        self.language = language
        self.visitorID = visitorID
        if let app {
            // The canonical form parsed by hand: `UUID(uuidString:)` (sscanf) costs more than the rest of the context.
            guard let id = UUID.canonical(app) ?? UUID(uuidString: app) else { throw ServiceError.badRequest(Self.appProblem) }
            self.app = id
        }
        if let osVersion {
            guard let version = LinkTargeting.OSVersion(osVersion) else { throw ServiceError.badRequest(Self.osVersionProblem) }
            self.osVersion = version
        }
    }

    /// The visitor `targeting` compares: a mobile device of `platform`, the context's values, and the request's
    /// where the context says nothing (the caller's country only when a target asks for it).
    func visitor(
        for targeting: ServedTargeting, platform: AppPlatform, request: Request, countries: CountryDatabase?,
        query: String?
    ) -> TargetVisitor {
        var visitor = TargetVisitor(platform: platform == .android ? .android : .ios, device: .mobile)
        visitor.osVersion = osVersion
        if let country {
            visitor.country = ServedTargeting.packed(country)
        } else if targeting.asksCountry, let code = countries?.country(of: request.remoteAddress) {
            visitor.country = ServedTargeting.packed(code)
        }
        if let language = language ?? request.headers["Accept-Language"] { visitor.language = TargetVisitor.firstLanguage(language) }
        visitor.app = app
        if targeting.asksUTM { visitor.campaign = Hit.Campaign.of(query: query, link: nil) }
        return visitor
    }

    private static func isCountry(_ text: String) -> Bool {
        text == "unknown" || (text.utf8.count == 2 && text.utf8.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 })
    }

    static let countryProblem = "country must be a two-letter country code (ISO 3166-1 alpha-2) or 'unknown'."
    static let languageProblem = "language must be an Accept-Language value of at most 200 bytes."
    static let visitorIDProblem = "visitorId must be 1 to 200 bytes."
    static let appProblem = "app must be an app id (a UUID)."
    static let osVersionProblem = "osVersion must be a version such as 17, 16.4 or 14.0.1."
}
