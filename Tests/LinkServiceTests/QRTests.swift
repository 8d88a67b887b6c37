import CZlib
import Foundation
@testable import LinkService
import Testing
import TestSupport

/// `GET /v1/qr` and the QR code drawing (docs/LANDING.md).
@Suite("QR codes")
struct QRTests {
    @Test func theMatrixHasFinderPatternsAndTheSVGDrawsIt() throws {
        let code = try #require(QRCode("https://links.example.com/widget/42"))
        #expect(code.width >= 21 && (code.width - 21) % 4 == 0)
        // The top-left finder pattern: a dark 7x7 ring around a light ring around a dark 3x3 square.
        for i in 0..<7 {
            #expect(code.modules[i] && code.modules[6 * code.width + i] && code.modules[i * code.width] && code.modules[i * code.width + 6])
        }
        #expect(!code.modules[1 * code.width + 1] && code.modules[3 * code.width + 3])
        let svg = code.svg(size: 200)
        #expect(
            svg.hasPrefix(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"200\" viewBox=\"0 0 \(code.side) \(code.side)\""))
        // The first row's first run is the finder's top edge, 7 modules, inside the quiet zone.
        #expect(svg.contains("d=\"M4 4h7v1h-7z"))
    }

    @Test func thePNGHasValidChunksAndInflatesToThePixels() throws {
        let code = try #require(QRCode("https://links.example.com/widget/42"))
        let png = code.png(size: 300)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        var chunks: [(String, [UInt8])] = []
        while offset < png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let typed = Array(png[(offset + 4)..<(offset + 8 + length)])
            let crc = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(UInt32(typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }) == crc)
            chunks.append((String(decoding: typed.prefix(4), as: UTF8.self), Array(typed.dropFirst(4))))
            offset += 12 + length
        }
        #expect(chunks.map(\.0) == ["IHDR", "IDAT", "IEND"])
        let scale = 300 / code.side
        let pixels = 300, margin = (300 - code.side * scale) / 2
        #expect(margin > 0, "the size is not a multiple of the code's side")
        #expect(Array(chunks[0].1.prefix(8)) == [0, 0, 1, 44, 0, 0, 1, 44], "exactly 300 pixels square")
        var inflated = [UInt8](repeating: 0, count: (pixels + 1) * pixels)
        var length = uLongf(inflated.count)
        let idat = chunks[1].1
        #expect(uncompress(&inflated, &length, idat, uLong(idat.count)) == Z_OK)
        #expect(Int(length) == inflated.count)
        // Quiet zone white, the finder's corner black.
        #expect(inflated[1] == 255)
        let corner = (margin + 4 * scale) * (pixels + 1) + 1 + margin + 4 * scale
        #expect(inflated[corner] == 0 && inflated[corner - 1] == 255 && inflated[corner - pixels - 1] == 255)
        // A code wider than the size asked for: one pixel per module.
        #expect(Array(code.png(size: code.side - 1)[16..<24]) == [0, 0, 0, UInt8(code.side), 0, 0, 0, UInt8(code.side)])
    }

    @Test func theEndpointDrawsLinksOfTheWorkspaceOnly() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // QR codes are an editor's (docs/PEOPLE.md, "Roles"): a key of the read scope acting as one, and a viewer refused.
            let read = try service.key(scope: .read, role: .editor)
            #expect(
                try service.request("GET", "/v1/qr?url=https://links.example.com/widget/42", key: try service.key(scope: .read)).status
                    == 403)
            let svg = try service.request("GET", "/v1/qr?url=https://links.example.com/widget/42", key: read)
            #expect(svg.status == 200)
            #expect(svg.headers["Content-Type"] == "image/svg+xml")
            #expect(svg.text.hasPrefix("<svg") && svg.text.contains("width=\"256\""))
            let png = try service.request("GET", "/v1/qr?url=https://links.example.com/widget/42&format=png&size=512", key: fixture.key)
            #expect(png.headers["Content-Type"] == "image/png")
            #expect(Array(png.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            #expect(Array(png.body[16..<24]) == [0, 0, 2, 0, 0, 0, 2, 0], "512 pixels square, as asked")
            #expect(try service.request("GET", "/v1/qr?url=https://links.example.com/w", key: nil).status == 401)
            let other = try service.key(workspace: "other", scope: .read, role: .editor)
            for (path, key) in [
                ("/v1/qr?url=https://links.example.com/widget/42", other), ("/v1/qr?url=https://evil.example/x", read),
                ("/v1/qr?url=http://links.example.com/x", read), ("/v1/qr?url=https://links.example.com/x&size=9", read),
                ("/v1/qr?url=https://links.example.com/x&format=gif", read), ("/v1/qr", read),
                ("/v1/qr?url=https://links.example.com/x&color=red", read),
            ] {
                let response = try service.request("GET", path, key: key)
                #expect(response.status == 400, "\(path)")
                #expect(response.headers["Content-Type"] == "application/problem+json", "\(path)")
            }
        }
    }

    @Test func aCodeCarriesItsOwnCampaign() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            func svg(_ query: String) throws -> String {
                try Fixture.expect(200, service.request("GET", "/v1/qr?url=\(query)", key: fixture.key)).text
            }
            func drawn(_ url: String) -> String { QRCode(url)!.svg(size: 256) }
            let link = "https://links.example.com/spring"
            #expect(try svg(link + "&utm_source=poster&utm_medium=print") == drawn(link + "?utm_source=poster&utm_medium=print"))
            // The URL's own fields give way to the ones given; its other items and fragment stay.
            let query = "https%3A%2F%2Flinks.example.com%2Fspring%3Fa%3D1%26utm_source%3Dmail%23top"
            #expect(
                try svg(query + "&utm_source=Bus%20stop%2042&utm_campaign=spring")
                    == drawn(link + "?a=1&utm_source=Bus%20stop%2042&utm_campaign=spring#top"))
            #expect(try svg(link) == drawn(link))
            for bad in ["&utm_source=", "&utm_term=" + String(repeating: "t", count: 201), "&utm_id=1"] {
                #expect(try service.request("GET", "/v1/qr?url=\(link)\(bad)", key: fixture.key).status == 400, "\(bad)")
            }
        }
    }
}
