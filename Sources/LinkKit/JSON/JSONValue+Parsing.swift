import ByteText

extension JSONValue {
    /// Parses one JSON text (RFC 8259): one value, optionally surrounded by whitespace.
    /// - Parameter text: the JSON text.
    /// - Throws: `LinkKitError` `.malformedJSON` with the byte offset, line and column of the first bad character.
    public static func parse(_ text: String) throws(LinkKitError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one JSON text given as UTF-8 bytes.
    /// - Parameter bytes: the UTF-8 encoded JSON text.
    /// - Throws: `LinkKitError` `.malformedJSON` with the byte offset, line and column of the first bad character.
    public static func parse(bytes: [UInt8]) throws(LinkKitError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes. Depth is bounded so a hostile file cannot overflow the stack.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 256

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(LinkKitError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated, as NSJSONSerialization does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw failure("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(LinkKitError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input, a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character, a value was expected")
        }
    }

    private mutating func parseObject() throws(LinkKitError) -> JSONValue {
        var members: [JSONMember] = []
        try parseElements(closedBy: "}", of: "an object") { parser throws(LinkKitError) in
            guard parser.peek(UInt8(ascii: "\"")) else { throw parser.failure("an object key (a string in double quotes) was expected") }
            let key = try parser.parseString()
            parser.skipWhitespace()
            guard parser.peek(UInt8(ascii: ":")) else { throw parser.failure("':' was expected after an object key") }
            parser.index += 1
            parser.skipWhitespace()
            members.append(JSONMember(key: key, value: try parser.parseValue()))
        }
        return .object(members)
    }

    private mutating func parseArray() throws(LinkKitError) -> JSONValue {
        var elements: [JSONValue] = []
        try parseElements(closedBy: "]", of: "an array") { parser throws(LinkKitError) in elements.append(try parser.parseValue()) }
        return .array(elements)
    }

    /// From an object's or array's opening bracket to `close`: each element (a member, a value) read by `element`,
    /// between blanks, and separated by commas.
    private mutating func parseElements(
        closedBy close: Unicode.Scalar, of container: String,
        _ element: (inout JSONParser) throws(LinkKitError) -> Void
    ) throws(LinkKitError) {
        try enter()
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: close)) { index += 1; depth -= 1; return }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: close)) { index += 1; break }
            throw failure("',' or '\(close)' was expected in \(container)")
        }
        depth -= 1
    }

    private mutating func parseString() throws(LinkKitError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var result = ""
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                result += try decodeRun(runStart, index)
                index += 1
                break
            }
            if byte < 0x20 { throw failure("control character in a string (it must be escaped)") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            result += try decodeRun(runStart, index)
            index += 1
            guard index < bytes.count else { throw failure("unterminated escape in a string") }
            let escape = bytes[index]
            index += 1
            scalars.removeAll()
            switch escape {
            case UInt8(ascii: "\""): result += "\""
            case UInt8(ascii: "\\"): result += "\\"
            case UInt8(ascii: "/"): result += "/"
            case UInt8(ascii: "b"): result += "\u{08}"
            case UInt8(ascii: "f"): result += "\u{0C}"
            case UInt8(ascii: "n"): result += "\n"
            case UInt8(ascii: "r"): result += "\r"
            case UInt8(ascii: "t"): result += "\t"
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code), bytes.count >= index + 6,
                    bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                {
                    let save = index
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                    }
                }
                // A lone surrogate is no character: refused, as invalid UTF-8 is (and as Apple's JSONSerialization
                // does), rather than stored as U+FFFD.
                guard let scalar = Unicode.Scalar(code) else {
                    index -= 6
                    throw failure("\\u\(String(code, radix: 16)) is half of a surrogate pair, without its other half")
                }
                result.unicodeScalars.append(scalar)
            default:
                index -= 1
                throw failure("invalid escape sequence in a string")
            }
            runStart = index
        }
        return result
    }

    private func decodeRun(_ start: Int, _ end: Int) throws(LinkKitError) -> String {
        if start == end { return "" }
        // (Validated from a buffer: the generic slice path validates byte by byte.)
        guard let run = bytes.withUnsafeBufferPointer({ String(validating: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) })
        else {
            throw LinkKitError(.malformedJSON, "invalid UTF-8 in a string near \(position(of: start))", offset: start)
        }
        return run
    }

    private mutating func parseHex4() throws(LinkKitError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("\\u must be followed by four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Hex.value(bytes[index]) else { throw failure("\\u must be followed by four hex digits") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(LinkKitError) -> String {
        do throws(JSONNumber.Flaw) {
            return try JSONNumber.text(bytes, at: &index)
        } catch {
            throw failure(error.message)
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(LinkKitError) {
        let length = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
        guard index + length <= bytes.count, bytes[index..<index + length].elementsEqual(expected) else {
            throw failure("unexpected character, a value was expected")
        }
        index += length
    }

    private mutating func enter() throws(LinkKitError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private func failure(_ message: String) -> LinkKitError {
        LinkKitError(.malformedJSON, "malformed JSON: \(message) at \(position(of: index))", offset: index)
    }

    /// `line L, column C (byte B)`, 1-based line and column, the column counted in bytes.
    private func position(of offset: Int) -> String {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return "line \(line), column \(offset - lineStart + 1) (byte \(offset))"
    }
}
