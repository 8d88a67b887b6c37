import CQRencode
import CZlib
import Foundation

/// A QR code of a link, encoded by Debian's libqrencode (never hand-written), drawn as SVG from its module
/// matrix or as a PNG whose compression and CRCs are zlib's (docs/LANDING.md).
struct QRCode: Sendable {
    /// Modules per side (without the quiet zone).
    let width: Int
    /// `width * width` modules, row by row: true is dark.
    let modules: [Bool]

    /// The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for four).
    static let quietZone = 4

    /// The QR code of `text` (8-bit mode, error correction level M, the smallest version that holds it); nil
    /// when libqrencode cannot encode it (too long for any version).
    init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        // Bit 0 of each byte is the module's colour (qrencode.h, "QRcode").
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Modules per side with the quiet zone.
    var side: Int { width + 2 * Self.quietZone }

    /// An SVG `size` pixels wide: a white square and one path of the dark runs of each row.
    func svg(size: Int) -> String {
        var path = ""
        path.reserveCapacity(width * width)
        for row in 0..<width {
            var column = 0
            while column < width {
                guard modules[row * width + column] else { column += 1; continue }
                let start = column
                while column < width, modules[row * width + column] { column += 1 }
                path += "M\(start + Self.quietZone) \(row + Self.quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 \(side) \(side)\""
            + " shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"QR code\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// An 8-bit grayscale PNG `size` pixels wide (or the code's side when that is wider): whole pixels per module, at
    /// least one, the code centred and the pixels left over added to the quiet zone.
    func png(size: Int) -> [UInt8] {
        let scale = max(1, size / side)
        let pixels = max(size, side)
        let margin = (pixels - side * scale) / 2
        /// The module under pixel `p` of a row or column (negative or `width` and over: the quiet zone).
        let module = { (p: Int) in p < margin ? -1 : (p - margin) / scale - Self.quietZone }
        var raw = [UInt8]()
        raw.reserveCapacity((pixels + 1) * pixels)
        for y in 0..<pixels {
            raw.append(0) // filter type None
            let row = module(y)
            for x in 0..<pixels {
                let column = module(x)
                let dark = row >= 0 && row < width && column >= 0 && column < width && modules[row * width + column]
                raw.append(dark ? 0 : 255)
            }
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), Z_BEST_COMPRESSION)
        precondition(status == Z_OK, "compress2 failed: \(status)")
        compressed.removeSubrange(Int(compressedLength)...)
        var header = [UInt8]()
        Self.appendBigEndian(UInt32(pixels), to: &header)
        Self.appendBigEndian(UInt32(pixels), to: &header)
        header += [8, 0, 0, 0, 0] // bit depth 8, grayscale, deflate, adaptive filtering, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        Self.appendChunk("IHDR", header, to: &png)
        Self.appendChunk("IDAT", compressed, to: &png)
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    /// A PNG chunk: length, type, data and the CRC-32 of type and data (zlib's `crc32`).
    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &out)
        let typed = Array(type.utf8) + data
        out += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(crc), to: &out)
    }

    private static func appendBigEndian(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
