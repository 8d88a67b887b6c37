import ByteText
import Glibc

/// Finds NUL bytes in a request's head, which libmicrohttpd hands over as C strings, so a NUL would silently cut
/// the request target or a header value there (`/healthz\0x` would be served as `/healthz`, a valid API key
/// followed by `\0junk` would authenticate). Also counts `Host` fields (RFC 9112 §3.2).
///
/// MHD (0.9.75) keeps the head in one buffer, its lines one after the other, each line's end (CR LF or LF)
/// overwritten with zeros, the request line's spaces and each header's colon too, and hands out pointers into
/// it: the method (the head's first byte), the target, the version, each header's name and value. Between the
/// end of one line's last text (the version, a value) and the next line's first byte there is then only the
/// line's end, one or two zeros; anything else there is text MHD's C strings did not show: the bytes after a
/// NUL. The head's last line is followed by the empty line's end (two to four zeros in all) and the head's length
/// is known (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`). A folded header line (obs-fold) breaks the same
/// pattern; it is refused alike, as RFC 9112 §5.2 allows. A field name that is not a token (whitespace before the
/// colon) is refused too (RFC 9112 §5.1). One NUL cannot be told apart: the one just before a bare LF
/// (`\0\n` and `\r\n` leave the same two zeros), which cuts nothing.
///
/// Works on MHD's pointers only: nothing is copied, a few bytes are read per line.
struct RequestHead {
    /// Just past the text of the line read last (nil: unknown, nothing more is checked).
    private var lineEnd: UnsafePointer<UInt8>?
    /// Whether a NUL (or a folded line) was found.
    private(set) var holdsNUL = false
    /// How many `Host` fields the head has.
    private(set) var hostCount = 0
    /// Whether the request line says `HTTP/1.1`.
    private(set) var isHTTP11 = false
    /// Whether a header field name is empty or holds a byte a token cannot: whitespace before the colon
    /// (`Content-Length : 5`, which MHD 0.9.75 files under the name `Content-Length `, so the body would be read
    /// as the next request), which RFC 9112 §5.1 says a server MUST refuse with 400.
    private(set) var hasBadName = false

    /// Why the head is refused (400), or nil: a NUL, no `Host` in an HTTP/1.1 request, or more than one `Host`
    /// (RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message
    /// that lacks a Host header field and to any request message that contains more than one Host header field line").
    var flaw: String? {
        if holdsNUL { return "The request line or a header field holds a NUL byte (or a folded header line)." }
        if hasBadName { return "A header field name is empty or holds whitespace or a character a token cannot (RFC 9112 §5.1)." }
        if hostCount > 1 { return "The request has more than one Host header field." }
        if hostCount == 0 && isHTTP11 { return "An HTTP/1.1 request needs a Host header field." }
        return nil
    }

    /// A head not checked (yet).
    init() {}

    /// Checks the request line: `method`, `target` and `version` as MHD gave them to the access handler,
    /// `targetLength` the target's length when the URI log callback saw it (before MHD cut the query off).
    init(method: UnsafePointer<CChar>?, target: UnsafePointer<CChar>?, targetLength: Int?, version: UnsafePointer<CChar>?) {
        guard let method = Self.bytes(method), let target = Self.bytes(target), let targetLength,
            let version = Self.bytes(version), version.pointee != 0
        else { return }
        let versionLength = strlen(version)
        isHTTP11 = versionLength == 8 && memcmp(version, "HTTP/1.1", 8) == 0
        let methodEnd = method + strlen(method)
        // The target must end where MHD ended it, at the space before the version (now a zero); else a NUL cut it.
        guard methodEnd < target, target + targetLength + 1 == version else {
            holdsNUL = true
            return
        }
        // Between the method and the target: the space MHD zeroed, then any further spaces it skipped.
        var next = methodEnd + 1
        while next < target {
            guard next.pointee == UInt8(ascii: " ") else {
                holdsNUL = true
                return
            }
            next += 1
        }
        lineEnd = version + versionLength
    }

    /// Checks one header field, in the order MHD read them (`MHD_get_connection_values_n`).
    mutating func add(name rawName: UnsafePointer<CChar>, nameLength: Int, value rawValue: UnsafePointer<CChar>?, valueLength: Int) {
        let name = UnsafeRawPointer(rawName).assumingMemoryBound(to: UInt8.self)
        // `Host` in any case: the four bytes at once, ASCII letters folded by setting bit 5.
        if nameLength == 4, UInt32(littleEndian: UnsafeRawPointer(name).loadUnaligned(as: UInt32.self)) | 0x2020_2020 == Self.host {
            hostCount += 1
        }
        if nameLength == 0 || !UnsafeBufferPointer(start: name, count: nameLength).allSatisfy(ASCII.isTokenCharacter) { hasBadName = true }
        guard let end = lineEnd, !holdsNUL else { return }
        lineEnd = nil
        guard Self.isLineEnd(from: end, to: name, atMost: 2) else {
            holdsNUL = true
            return
        }
        // Between the name and the value: the colon MHD zeroed, then the blanks it skipped.
        let nameEnd = name + nameLength
        let value = Self.bytes(rawValue) ?? nameEnd + 1
        guard nameEnd < value, nameEnd.pointee == 0 else {
            holdsNUL = true
            return
        }
        var next = nameEnd + 1
        while next < value {
            guard ASCII.isBlank(next.pointee) else {
                holdsNUL = true
                return
            }
            next += 1
        }
        lineEnd = value + valueLength
    }

    /// Checks what follows the last line: its end and the empty line's, up to `headLength` bytes from `method`.
    mutating func finish(method: UnsafePointer<CChar>?, headLength: Int) {
        guard let method = Self.bytes(method), headLength > 0, let end = lineEnd, !holdsNUL else { return }
        if !Self.isLineEnd(from: end, to: method + headLength, atMost: 4) { holdsNUL = true }
    }

    /// `"host"` as the little-endian `UInt32` of its four bytes.
    private static let host = UInt32(0x74_73_6F_68)

    /// Whether `from..<to` is one to `atMost` zeros (line ends, each one or two bytes).
    private static func isLineEnd(from: UnsafePointer<UInt8>, to: UnsafePointer<UInt8>, atMost: Int) -> Bool {
        guard from < to, to - from <= atMost else { return false }
        var next = from
        while next < to {
            if next.pointee != 0 { return false }
            next += 1
        }
        return true
    }

    private static func bytes(_ text: UnsafePointer<CChar>?) -> UnsafePointer<UInt8>? {
        text.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
    }
}
