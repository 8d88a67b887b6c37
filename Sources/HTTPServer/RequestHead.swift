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
/// pattern; it is refused alike, as RFC 9112 §5.2 allows. One NUL cannot be told apart: the one just before a bare LF
/// (`\0\n` and `\r\n` leave the same two zeros), which cuts nothing.
///
/// Works on addresses only: nothing is copied, a few bytes are read per line.
struct RequestHead {
    /// The address just past the text of the line read last (0: unknown, nothing more is checked).
    private var lineEnd: UInt = 0
    /// Whether a NUL (or a folded line) was found.
    private(set) var holdsNUL = false
    /// How many `Host` fields the head has.
    private(set) var hostCount = 0
    /// Whether the request line says `HTTP/1.1`.
    private(set) var isHTTP11 = false

    /// Why the head is refused (400), or nil: a NUL, no `Host` in an HTTP/1.1 request, or more than one `Host`
    /// (RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message
    /// that lacks a Host header field and to any request message that contains more than one Host header field line").
    var flaw: String? {
        if holdsNUL { return "The request line or a header field holds a NUL byte (or a folded header line)." }
        if hostCount > 1 { return "The request has more than one Host header field." }
        if hostCount == 0 && isHTTP11 { return "An HTTP/1.1 request needs a Host header field." }
        return nil
    }

    /// A head not checked (yet).
    init() {}

    /// Checks the request line: `method`, `target` and `version` as MHD gave them to the access handler,
    /// `targetLength` the target's length when the URI log callback saw it (before MHD cut the query off).
    init(method: UnsafePointer<CChar>?, target: UnsafePointer<CChar>?, targetLength: Int?, version: UnsafePointer<CChar>?) {
        guard let method, let target, let targetLength, let version, version.pointee != 0 else { return }
        let versionLength = strlen(version)
        isHTTP11 = versionLength == 8 && memcmp(version, "HTTP/1.1", 8) == 0
        let methodEnd = UInt(bitPattern: method) + UInt(strlen(method))
        let start = UInt(bitPattern: target)
        let space = start + UInt(targetLength)   // the space before the version, now a zero
        guard methodEnd < start, space + 1 == UInt(bitPattern: version) else {
            holdsNUL = true   // the target (or the method) ends before MHD's own end of it: a NUL inside
            return
        }
        // Between the method and the target: the space MHD zeroed, then any further spaces it skipped.
        holdsNUL = !Self.bytes(from: methodEnd + 1, to: start, allEqual: UInt8(ascii: " "))
        lineEnd = UInt(bitPattern: version) + UInt(versionLength)
    }

    /// Checks one header field, in the order MHD read them (`MHD_get_connection_values_n`).
    mutating func add(name: UnsafePointer<CChar>, nameLength: Int, value: UnsafePointer<CChar>?, valueLength: Int) {
        if nameLength == 4, ASCII.equalIgnoringCase(UnsafeRawBufferPointer(start: name, count: 4), "host".utf8) { hostCount += 1 }
        // Lengths that count past a NUL (MHD versions that keep it) show it directly.
        if let value, valueLength > 0, memchr(value, 0, valueLength) != nil { holdsNUL = true }
        guard lineEnd != 0, !holdsNUL else { return }
        let lineStart = UInt(bitPattern: name)
        guard Self.isLineEnd(from: lineEnd, to: lineStart, atMost: 2) else {
            holdsNUL = true
            return
        }
        // Between the name and the value: the colon MHD zeroed, then the blanks it skipped.
        let nameEnd = lineStart + UInt(nameLength)
        let valueStart = value.map { UInt(bitPattern: $0) } ?? nameEnd + 1
        guard nameEnd < valueStart, Self.byte(at: nameEnd) == 0,
              Self.bytes(from: nameEnd + 1, to: valueStart, allSatisfy: { ASCII.isBlank($0) }) else {
            holdsNUL = true
            return
        }
        lineEnd = valueStart + UInt(valueLength)
    }

    /// Checks what follows the last line: its end and the empty line's, up to `headLength` bytes from `method`.
    mutating func finish(method: UnsafePointer<CChar>?, headLength: Int) {
        guard let method, headLength > 0, lineEnd != 0, !holdsNUL else { return }
        if !Self.isLineEnd(from: lineEnd, to: UInt(bitPattern: method) + UInt(headLength), atMost: 4) { holdsNUL = true }
    }

    /// Whether `from..<to` is one to `atMost` zeros (line ends, each 1 or 2 bytes).
    private static func isLineEnd(from: UInt, to: UInt, atMost: UInt) -> Bool {
        from < to && to - from <= atMost && bytes(from: from, to: to, allEqual: 0)
    }

    private static func bytes(from: UInt, to: UInt, allEqual byte: UInt8) -> Bool {
        bytes(from: from, to: to) { $0 == byte }
    }

    private static func bytes(from: UInt, to: UInt, allSatisfy predicate: (UInt8) -> Bool) -> Bool {
        guard from <= to else { return false }
        var address = from
        while address < to {
            guard predicate(byte(at: address)) else { return false }
            address += 1
        }
        return true
    }

    private static func byte(at address: UInt) -> UInt8 {
        UnsafePointer<UInt8>(bitPattern: address)!.pointee
    }
}
