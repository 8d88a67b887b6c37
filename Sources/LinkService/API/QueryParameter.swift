import HTTPServer
import LinkKit

/// A query parameter of an `Endpoint`, e.g. `?platform=ios`: declared once, it is both what the OpenAPI document
/// says and how the handler reads it (`value(in:)`, `number(in:)`), so the two cannot disagree.
struct QueryParameter: Sendable {
    let name: String
    let schema: Schema
    let description: String
    var required = false
    /// What `value(in:)` checks, read from `schema` once.
    private let values: [String]?
    private let maxLength: Int?
    private let bounds: ClosedRange<Int>?
    /// `name`'s and `values`' UTF-8 bytes, for `withBytes(in:_:)`.
    private let nameBytes: [UInt8]
    private let nameIsASCII: Bool
    private let valueBytes: [[UInt8]]?

    /// - Parameters:
    ///   - name: the parameter name.
    ///   - schema: its values.
    ///   - description: what it does.
    ///   - required: whether requests must send it.
    init(_ name: String, _ schema: Schema, _ description: String, required: Bool = false) {
        self.name = name
        self.schema = schema
        self.description = description
        self.required = required
        let json = schema.json
        values = json["enum"]?.arrayValue?.compactMap(\.stringValue)
        maxLength = Self.integer(json["maxLength"])
        bounds =
            json["type"]?.stringValue == "integer"
            ? (Self.integer(json["minimum"]) ?? Int.min)...(Self.integer(json["maximum"]) ?? Int.max) : nil
        nameBytes = Array(name.utf8)
        nameIsASCII = nameBytes.allSatisfy { $0 < 0x80 }
        valueBytes = values?.map { Array($0.utf8) }
    }

    /// The parameter's value in `request`, checked against the declaration: nil when it is absent (and not
    /// required).
    /// - Throws: `ServiceError.badRequest` naming the parameter when a required one is absent or empty, a value is
    ///   not one of the schema's `enum`, longer than its `maxLength`, or (for an integer schema) not a whole
    ///   number within its bounds.
    func value(in request: Request) throws(ServiceError) -> String? {
        guard let text = request.query(name), !(required && text.isEmpty) else {
            if required { throw missing }
            return nil
        }
        if let values, !values.contains(text) {
            throw .badRequest("\(name) must be one of \(values.joined(separator: ", ")), not '\(text.prefix(100))'.")
        }
        // Code points, as the schema's maxLength counts; no more than the UTF-8 bytes, which a string knows at once.
        if let maxLength, text.utf8.count > maxLength, text.unicodeScalars.count > maxLength {
            throw .badRequest("\(name) must be at most \(maxLength) characters long.")
        }
        if let bounds {
            guard let number = Int(text), bounds.contains(number) else {
                throw .badRequest(
                    "\(name) must be a whole number from \(bounds.lowerBound) to \(bounds.upperBound), not '\(text.prefix(100))'.")
            }
        }
        return text
    }

    /// The parameter's value in `request` handed to `body` as its decoded bytes, where it lies in the request's
    /// query (no string made of it), checked as `value(in:)` checks it: on the bytes where they tell (one of the
    /// `enum`'s values byte for byte, no more bytes than `maxLength`), otherwise as `value(in:)` does, with its
    /// problems. nil when it is absent (and not required).
    /// - Throws: as `value(in:)`.
    func withBytes<R>(in request: Request, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(ServiceError) -> R? {
        var answer: R?
        let passed = nameBytes.withUnsafeBufferPointer { name in
            request.decodedQuery.withValue(named: name, nameIsASCII: nameIsASCII) { bytes -> Bool in
                guard passes(bytes) else { return false }
                answer = body(bytes)
                return true
            }
        }
        switch passed {
        case true?: return answer
        case nil:
            if required { throw missing }
            return nil
        case false?:
            // The text decides: a problem, or a value the bytes alone could not pass (a longer text of fewer characters).
            _ = try value(in: request)
            return nameBytes.withUnsafeBufferPointer { name in request.decodedQuery.withValue(named: name, nameIsASCII: nameIsASCII, body) }
        }
    }

    /// Whether `value(in:)` would pass `bytes` as they are, known from the bytes alone.
    private func passes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if required && bytes.isEmpty { return false }
        if let valueBytes, !valueBytes.contains(where: { $0.elementsEqual(bytes) }) { return false }
        if let maxLength, bytes.count > maxLength { return false }
        return bounds == nil
    }

    /// The problem of a required parameter that is absent or empty.
    private var missing: ServiceError { .badRequest("\(name) is required: \(description)") }

    /// An integer parameter's value, within the schema's bounds; nil when absent.
    /// - Throws: as `value(in:)`.
    func number(in request: Request) throws(ServiceError) -> Int? {
        try value(in: request).flatMap { Int($0) }
    }

    /// Refuses a request that sends a parameter none of `parameters` names (for endpoints that take no other).
    /// - Throws: `ServiceError.badRequest` naming it and listing those accepted.
    static func refuseOthers(than parameters: [QueryParameter], in request: Request) throws(ServiceError) {
        for item in request.queryItems where !parameters.contains(where: { $0.name == item.name }) {
            let known = parameters.map(\.name).sorted().joined(separator: ", ")
            throw .badRequest("Unknown parameter '\(item.name.prefix(100))'. This endpoint accepts: \(known).")
        }
    }

    /// A schema keyword's whole-number value.
    private static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let text)? = value else { return nil }
        return Int(text)
    }
}
