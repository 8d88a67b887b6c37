import ByteText
import Foundation
import HTTPServer
import LinkKit

/// `GET /v1/qr?url=…&format=svg|png&size=…&utm_source=…`: the QR code of a link on one of the caller's link domains
/// (a QR code of any other URL would make linkd a QR service for anything), with the campaign fields given added to
/// the URL it encodes, so the taps of a printed code are told apart from the same link's other taps.
struct QRHandlers: EndpointGroup {
    let resolver: Resolver

    static let sizes = 64...2048
    static let defaultSize = 256

    private static let url = QueryParameter(
        "url", Schema.linkURL.with("maxLength", .integer(2000)),
        "An https link on one of the workspace's link domains.", required: true)
    private static let format = QueryParameter("format", .enumeration(["svg", "png"]), "Drawing (default svg).")
    private static let size = QueryParameter(
        "size", Schema.integer(minimum: sizes.lowerBound, maximum: sizes.upperBound),
        "Width in pixels (default \(defaultSize)).")
    /// `utm_source`, …: each given one is set in the encoded URL's query, replacing the URL's own.
    private static let campaign = Hit.Campaign.Field.allCases.map { field in
        QueryParameter(
            field.rawValue, Schema.string(minLength: 1, maxLength: TextLimit.campaign.scalars),
            "Set in the encoded URL's query (replacing the URL's own \(field.rawValue)): its taps are counted under it.")
    }
    private static let parameters = [url, format, size] + campaign

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/qr", "getQRCode", "The QR code of a link on one of the workspace's domains", tag: "Resolve", scope: .read,
                role: .editor,
                query: Self.parameters,
                success: .alternatives(
                    200,
                    [
                        (
                            "image/svg+xml",
                            Schema.string.described(
                                "An SVG drawing of the code (libqrencode, error correction M, a quiet zone of 4 modules).")
                        ),
                        ("image/png", Schema.string.described("An 8-bit grayscale PNG, whole pixels per module.")),
                    ]), qr)
        ]
    }

    func qr(_ request: Request, _ principal: Principal) throws -> Response {
        try QueryParameter.refuseOthers(than: Self.parameters, in: request)
        let url = try Self.url.value(in: request)!
        let format = try Self.format.value(in: request) ?? "svg"
        let size = try Self.size.number(in: request) ?? Self.defaultSize
        let answer: Resolver.Answer
        do {
            answer = try resolver.answer(url, platform: .ios, workspace: principal.workspaceID)
        } catch {
            throw ServiceError.badRequest("url is not a valid absolute http(s) URL.")
        }
        guard answer.entry != nil, answer.parsed.scheme == "https" else {
            throw ServiceError.badRequest("url must be an https link on one of this workspace's domains.")
        }
        var items: [(name: String, value: String)] = []
        for parameter in Self.campaign {
            guard let value = try parameter.value(in: request) else { continue }
            guard !value.isEmpty else { throw ServiceError.badRequest("\(parameter.name) must not be empty: leave it out instead.") }
            items.append((parameter.name, value))
        }
        let encoded = Self.url(url, setting: items)
        guard let code = QRCode(encoded) else { throw ServiceError.badRequest("url is too long for a QR code.") }
        var headers = HTTPHeaders()
        headers.add("X-Content-Type-Options", "nosniff")
        if format == "png" {
            headers.add("Content-Type", "image/png")
            return Response(status: 200, headers: headers, body: code.png(size: size))
        }
        headers.add("Content-Type", "image/svg+xml")
        headers.add("Content-Security-Policy", "default-src 'none'")
        return Response(status: 200, headers: headers, body: Array(code.svg(size: size).utf8))
    }

    /// `url` with the query items `items` set: items of those names are dropped from its query, the others kept in
    /// order, and `items` appended (percent-encoded), before any fragment.
    static func url(_ url: String, setting items: [(name: String, value: String)]) -> String {
        guard !items.isEmpty else { return url }
        let hash = url.firstIndex(of: "#")
        let fragment = hash.map { String(url[$0...]) } ?? ""
        let beforeFragment = String(url[..<(hash ?? url.endIndex)])
        let question = beforeFragment.firstIndex(of: "?")
        let base = String(beforeFragment[..<(question ?? beforeFragment.endIndex)])
        let names = Set(items.map(\.name))
        var query = question.map { beforeFragment[beforeFragment.index(after: $0)...].split(separator: "&").map(String.init) } ?? []
        query.removeAll { item in names.contains(String(item.prefix { $0 != "=" })) }
        query += items.map { "\($0.name)=\(Percent.encoded($0.value, keeping: Percent.isUnreserved))" }
        return base + "?" + query.joined(separator: "&") + fragment
    }
}
