import Foundation
import HTTPServer
import LinkKit

/// `GET /v1/qr?url=…&format=svg|png&size=…`: the QR code of a link on one of the caller's link domains (a
/// QR code of any other URL would make linkd a QR service for anything).
struct QRHandlers: Sendable {
    let resolver: Resolver
    let auth: Authenticator

    static let sizes = 64...2048
    static let defaultSize = 256

    func register(in routes: inout RouterBuilder) {
        routes.add(.GET, "/v1/qr", scope: .read, auth: auth, qr)
    }

    func qr(_ request: Request, _ principal: Principal) throws -> Response {
        for item in request.queryItems where !["url", "format", "size"].contains(item.name) {
            throw ServiceError.badRequest("Unknown parameter '\(item.name.prefix(100))'. This endpoint accepts: format, size, url.")
        }
        guard let url = request.query("url"), !url.isEmpty else {
            throw ServiceError.badRequest("Pass the link as ?url=https://…")
        }
        let format = request.query("format") ?? "svg"
        guard format == "svg" || format == "png" else { throw ServiceError.badRequest("format must be svg or png, not '\(format.prefix(100))'.") }
        var size = Self.defaultSize
        if let text = request.query("size") {
            guard let value = Int(text), Self.sizes.contains(value) else {
                throw ServiceError.badRequest("size must be a whole number of pixels from \(Self.sizes.lowerBound) to \(Self.sizes.upperBound), not '\(text.prefix(100))'.")
            }
            size = value
        }
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
        headers.add("Cache-Control", "private, max-age=3600")
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
