/// `X-Request-ID` handling: accept a client's id when it is harmless to echo and log, otherwise make one.
enum RequestID {
    /// Whether `value` is 1–128 characters of `[A-Za-z0-9._-]`: safe in headers, logs and JSON.
    static func isSane(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard (1...128).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// The client's id when sane, else a fresh one.
    static func accept(_ candidate: String?) -> String {
        if let candidate, isSane(candidate) { return candidate }
        return generate()
    }

    /// 16 random bytes as 32 lower-case hex digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
