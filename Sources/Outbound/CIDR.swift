/// An address range, `ADDRESS/PREFIX` (`10.0.0.0/8`, `fd00::/8`, `::ffff:10.0.0.0/104`): the addresses of the
/// same family equal to `address` in its first `prefixLength` bits.
public struct CIDR: Sendable, Hashable, CustomStringConvertible {
    /// The range's first address (no bit set past the prefix).
    public let address: IPAddress
    /// 0 to 32 for IPv4, 0 to 128 for IPv6.
    public let prefixLength: Int

    /// Why a text is not a range, naming it.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String

        public var description: String { "not an address range: \"\(text)\": \(reason)" }
    }

    /// Reads `ADDRESS/PREFIX`, strictly: the address as `inet_pton` reads it (IPv4 dotted quad without leading
    /// zeros, IPv6 without brackets or zone), the prefix in decimal without sign, blank or leading zero and
    /// within the family's width, and no bit of the address set past the prefix (`10.0.0.1/8` is a mistake for
    /// `10.0.0.0/8`, refused rather than guessed). A bare address is its own range (`/32`, `/128`).
    public init(_ text: String) throws(ParseError) {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw ParseError(text: text, reason: "more than one \"/\"") }
        guard let address = IPAddress(String(parts[0])) else {
            throw ParseError(text: text, reason: "\"\(parts[0])\" is not a numeric IPv4 or IPv6 address")
        }
        let width = address.bytes.count * 8
        var length = width
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                digits == "0" || !digits.hasPrefix("0"), let value = Int(digits)
            else {
                throw ParseError(text: text, reason: "the prefix length \"\(digits)\" is not a decimal number")
            }
            guard value <= width else {
                throw ParseError(
                    text: text,
                    reason:
                        "the prefix length \(value) is over \(width), the width of an \(address.family == .ipv4 ? "IPv4" : "IPv6") address")
            }
            length = value
        }
        let range = CIDR(address, length)
        guard range.address == address else {
            throw ParseError(text: text, reason: "bits are set past the /\(length) prefix: the range is \(range)")
        }
        self = range
    }

    /// The range of `/prefixLength` that holds `address` (its bits past the prefix cleared).
    init(_ address: IPAddress, _ prefixLength: Int) {
        self.address = IPAddress(bytes: address.bytes.enumerated().map { index, byte in byte & Self.mask(prefixLength, index) })!
        self.prefixLength = prefixLength
    }

    /// Whether `candidate` is of the range's family and in it.
    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        return candidate.bytes.indices.allSatisfy { candidate.bytes[$0] & Self.mask(prefixLength, $0) == address.bytes[$0] }
    }

    public var description: String { "\(address)/\(prefixLength)" }

    /// The bits of byte `index` that a `/prefixLength` keeps.
    private static func mask(_ prefixLength: Int, _ index: Int) -> UInt8 {
        let kept = min(max(prefixLength - index * 8, 0), 8)
        return kept == 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
    }
}
