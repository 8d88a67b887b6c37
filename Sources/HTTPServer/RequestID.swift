import ByteText
import Glibc
import Observability

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

    /// 16 random bytes as 32 lower-case hex digits. One `arc4random_buf` call (glibc: the kernel's CSPRNG,
    /// as `SystemRandomNumberGenerator`, which took one system call per 8 bytes).
    static func generate() -> String {
        var random = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &random) { arc4random_buf($0.baseAddress!, $0.count) }
        return hex(random)
    }

    /// A request id as a `Request` keeps it: a text (the client's, or given), or generated bits written out as
    /// text each time they are read (the same text every time), so a response that sends no id (a
    /// `PreparedResponse`) costs no formatting.
    enum Value: Sendable {
        case text(String)
        case bits(UInt64, UInt64)

        var text: String {
            switch self {
            case .text(let text): text
            case .bits(let high, let low): RequestID.hex((high, low))
            }
        }
    }

    /// 128 bits as 32 lower-case hex digits, in memory order.
    static func hex(_ value: (UInt64, UInt64)) -> String {
        withUnsafeBytes(of: value) { Hex.encode($0) }
    }
}

/// Request ids for one server without a system call per request: a per-process random key and a counter,
/// mixed by `SplitMix64.mix` (a bijection, so ids never repeat within a process; the random key
/// keeps processes apart). 32 lower-case hex digits, like `RequestID.generate()`.
final class RequestIDGenerator: Sendable {
    private let key: (UInt64, UInt64)
    /// Counted per thread stripe; the stripe goes into the top 12 bits, so ids stay distinct across stripes.
    private let counters: Stripes

    init(stripes: StripeAssignment) {
        precondition(stripes.count <= 1 << 12, "stripes fit the id's top 12 bits")
        counters = Stripes(slots: 1, assignment: stripes)
        var random = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &random) { arc4random_buf($0.baseAddress!, $0.count) }
        key = random
    }

    func next() -> RequestID.Value {
        let stripe = counters.assignment.current
        let n = UInt64(stripe) << 52 | counters.add(1, to: 0, stripe: stripe)
        return .bits(SplitMix64.mix(key.0 &+ n), SplitMix64.mix(key.1 ^ n))
    }
}
