import Foundation
import GeoIP
import HTTPServer
import LinkKit
import Postgres

/// The visitor's context a resolve caller passes for a targeted link (docs/LINKS.md, "Targeting and experiments"):
/// read the same way from `GET /v1/resolve`'s query and `POST /v1/resolve`'s body, so both answer a targeted link
/// alike.
struct ResolveVisitorContext {
    /// `ServedTargeting.packed` of a two-letter code (`unknown`: 0); nil: the caller's address's country.
    var country: UInt16?
    /// Whether the caller said the visitor's languages (an `Accept-Language` value); without, the request's header
    /// says them.
    var saysLanguage = false
    /// The first acceptable language of the caller's value (`TargetVisitor.firstLanguage`), when it said one.
    var language: Substring?
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

    /// `GET /v1/resolve`'s query parameters that carry the context.
    static let countryParameter = QueryParameter("country", Schema.string(pattern: countryPattern), countryDescription)
    static let languageParameter = QueryParameter("language", Schema.string(maxLength: 200), languageDescription)
    static let visitorIDParameter = QueryParameter("visitorId", Schema.string(minLength: 1, maxLength: 200), visitorIDDescription)
    static let appParameter = QueryParameter("app", Schema.uuid, appDescription)
    static let osVersionParameter = QueryParameter("osVersion", Schema.string(pattern: osVersionPattern), osVersionDescription)
    static let queryParameters = [countryParameter, languageParameter, visitorIDParameter, appParameter, osVersionParameter]

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
        if var text = body.string("country") {
            if let code = text.withUTF8(Self.country) { country = code } else { body.errors.add(body.at("country"), Self.countryProblem) }
        }
        if let text = body.string("language") {
            if text.utf8.count <= 200 {
                saysLanguage = true
                language = TargetVisitor.firstLanguage(text)
            } else {
                body.errors.add(body.at("language"), Self.languageProblem)
            }
        }
        if let text = body.string("visitorId") {
            if (1...200).contains(text.utf8.count) {
                visitorID = text
            } else {
                body.errors.add(body.at("visitorId"), Self.visitorIDProblem)
            }
        }
        if var text = body.string("app") {
            if let id = text.withUTF8(Self.app) {
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

    /// The context in `GET /v1/resolve`'s query, each value read where it lies in the request's decoded query (no
    /// string made but the visitor id and the first language's tag), each parameter checked against its schema.
    /// - Throws: `ServiceError.badRequest` naming the parameter for a value its schema refuses (`QueryParameter`), and
    ///   for a `country`, `visitorId`, `app` or `osVersion` that is not one, as `POST` refuses them.
    init(query request: Request) throws {
        switch try Self.countryParameter.withBytes(in: request, Self.country) {
        case nil: break
        case let code??: country = code
        case .some(nil): throw ServiceError.badRequest(Self.countryProblem)
        }
        if let tag = try Self.languageParameter.withBytes(in: request, Self.firstLanguage) {
            saysLanguage = true
            language = tag
        }
        switch try Self.visitorIDParameter.withBytes(in: request, Self.visitorID) {
        case nil: break
        case let id??: visitorID = id
        case .some(nil): throw ServiceError.badRequest(Self.visitorIDProblem)
        }
        switch try Self.appParameter.withBytes(in: request, Self.app) {
        case nil: break
        case let id??: app = id
        case .some(nil): throw ServiceError.badRequest(Self.appProblem)
        }
        switch try Self.osVersionParameter.withBytes(in: request, LinkTargeting.OSVersion.init(bytes:)) {
        case nil: break
        case let version??: osVersion = version
        case .some(nil): throw ServiceError.badRequest(Self.osVersionProblem)
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
            visitor.country = country
        } else if targeting.asksCountry, let code = countries?.country(of: request.remoteAddress) {
            visitor.country = ServedTargeting.packed(code)
        }
        if saysLanguage {
            visitor.language = language
        } else if let header = request.headers["Accept-Language"] {
            visitor.language = TargetVisitor.firstLanguage(header)
        }
        visitor.app = app
        if targeting.asksUTM { visitor.campaign = Hit.Campaign.of(query: query, link: nil) }
        return visitor
    }

    /// `ServedTargeting.packed` of a two-letter code or `unknown` (0); nil for anything else.
    private static func country(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16? {
        if bytes.count == 2, bytes.allSatisfy({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }) {
            return UInt16(bytes[0] & 0xDF) << 8 | UInt16(bytes[1] & 0xDF)
        }
        guard bytes.elementsEqual("unknown".utf8) else { return nil }
        return 0
    }

    /// The first acceptable language of an `Accept-Language` value (`TargetVisitor.firstLanguage`), its tag the
    /// only text made.
    private static func firstLanguage(_ bytes: UnsafeBufferPointer<UInt8>) -> Substring? {
        TargetVisitor.firstLanguage(in: bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)[...] }
    }

    /// A visitor id: 1 to 200 bytes (its schema's limit, in characters, is checked before), as text.
    private static func visitorID(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// An app id: the canonical form parsed by hand (`UUID(uuidString:)`, sscanf, costs more than the rest of the
    /// context), any other form as Foundation reads it.
    private static func app(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        UUID.canonical(bytes: bytes) ?? UUID(uuidString: String(decoding: bytes, as: UTF8.self))
    }

    static let countryProblem = "country must be a two-letter country code (ISO 3166-1 alpha-2) or 'unknown'."
    static let languageProblem = "language must be an Accept-Language value of at most 200 bytes."
    static let visitorIDProblem = "visitorId must be 1 to 200 bytes."
    static let appProblem = "app must be an app id (a UUID)."
    static let osVersionProblem = "osVersion must be a version such as 17, 16.4 or 14.0.1."
}
