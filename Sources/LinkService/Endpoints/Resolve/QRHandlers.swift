import Foundation
import HTTPServer
import LinkKit

/// `GET /v1/qr?url=…&format=svg|png&size=…`: the QR code of a link on one of the caller's link domains (a
/// QR code of any other URL would make linkd a QR service for anything).
struct QRHandlers: EndpointGroup {
    let resolver: Resolver
    let auth: Authenticator

    static let sizes = 64...2048
    static let defaultSize = 256

    private static let url = QueryParameter("url", Schema.linkURL.with("maxLength", .integer(2000)),
                                            "An https link on one of the workspace's link domains.", required: true)
    private static let format = QueryParameter("format", .enumeration(["svg", "png"]), "Drawing (default svg).")
    private static let size = QueryParameter("size", Schema.integer(minimum: sizes.lowerBound, maximum: sizes.upperBound),
                                             "Width in pixels (default \(defaultSize)).")
    private static let parameters = [url, format, size]

    var endpoints: [Endpoint] {
        [
            Endpoint(.GET, "/v1/qr", "getQRCode", "The QR code of a link on one of the workspace's domains", tag: "Resolve", scope: .read,
                     query: Self.parameters,
                     success: .alternatives(200, [
                        ("image/svg+xml", Schema.string.described("An SVG drawing of the code (libqrencode, error correction M, a quiet zone of 4 modules).")),
                        ("image/png", Schema.string.described("An 8-bit grayscale PNG, whole pixels per module.")),
                     ]), qr),
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
        guard let code = QRCode(url) else { throw ServiceError.badRequest("url is too long for a QR code.") }
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
}
