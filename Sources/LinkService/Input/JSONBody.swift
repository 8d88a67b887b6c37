import Foundation
import HTTPServer
import LinkKit

/// The JSON body of a request: media type checked (415), syntax checked (400 with the position), no NUL
/// character and no number out of range anywhere (422), and the root required to be an object (422).
enum JSONBody {
    /// Parses the body.
    /// - Throws: `ServiceError.unsupportedMediaType` for another `Content-Type`, `.badRequest` for an empty or
    ///   malformed body, `.validation` with a pointer to every string or key holding `\u0000` (PostgreSQL stores
    ///   no NUL in `text` or `jsonb`) and to every number out of `JSONNumber.isInRange`'s range (beyond a double,
    ///   or what `jsonb` cannot hold): refused here, once for every resource, instead of failing where it is stored.
    static func parse(_ request: Request) throws(ServiceError) -> JSONValue {
        let contentType = mediaType(of: request)
        guard contentType == "application/json" || contentType.hasSuffix("+json") else {
            throw .unsupportedMediaType
        }
        guard !request.body.isEmpty else { throw .badRequest("The request needs a JSON body.") }
        let value = try parse(bytes: request.body, what: "The body")
        let errors = refusals(in: value, at: "", nul: mayHoldNUL(request.body))
        if !errors.isEmpty { throw .validation(errors) }
        return value
    }

    /// The request's media type (`Content-Type` without its parameters), in lower case; empty when absent.
    static func mediaType(of request: Request) -> String {
        request.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    }

    /// One JSON text (`what` names it in the 400: "The body", "Line 3").
    static func parse(bytes: some Collection<UInt8>, what: String) throws(ServiceError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes: Array(bytes))
        } catch {
            throw .badRequest("\(what) is not valid JSON: \(error.message)")
        }
    }

    /// An error for every number under `value` (at `pointer`) out of range and, with `nul`, every string and
    /// member name holding a NUL character. A NUL reaches a string only through the escape `\u0000` (a raw one is
    /// a JSON syntax error): pass `mayHoldNUL` of the text, so that texts without one are not searched for it.
    static func refusals(in value: JSONValue, at pointer: String, nul: Bool = true) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        collect(in: value, at: pointer, nul: nul, into: &errors)
        return errors
    }

    /// What a number out of `JSONNumber.isInRange`'s range is told.
    static let numberOutOfRange = """
        The number is out of range: linkd accepts numbers of at most 1.7976931348623157e308 in magnitude, with an \
        exponent of at most \(JSONNumber.maxScale) either way and at most \(JSONNumber.maxScale) digits after the decimal \
        point once the exponent applies.
        """

    private static let nulEscape = Array("\\u0000".utf8)

    /// Whether `body` holds the text `\u0000` anywhere.
    static func mayHoldNUL(_ body: some Collection<UInt8>) -> Bool {
        var index = body.startIndex
        while let slash = body[index...].firstIndex(of: UInt8(ascii: "\\")) {
            if body[slash...].starts(with: nulEscape) { return true }
            index = body.index(after: slash)
        }
        return false
    }

    /// Every number out of range under `value`, and with `nul` every string and object key holding a NUL character.
    private static func collect(in value: JSONValue, at pointer: String, nul: Bool, into errors: inout [Problem.FieldError]) {
        switch value {
        case .string(let text) where nul && text.utf8.contains(0):
            errors.append(
                Problem.FieldError(pointer: pointer, detail: "The text contains a NUL character (\\u0000), which linkd does not accept."))
        case .number(let text) where !JSONNumber.isInRange(text):
            errors.append(Problem.FieldError(pointer: pointer, detail: numberOutOfRange))
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(in: element, at: JSONPointer.appending(pointer, index), nul: nul, into: &errors)
            }
        case .object(let members):
            for member in members {
                let at = JSONPointer.appending(pointer, member.key)
                if nul, member.key.utf8.contains(0) {
                    errors.append(
                        Problem.FieldError(
                            pointer: at, detail: "The member name contains a NUL character (\\u0000), which linkd does not accept."))
                }
                collect(in: member.value, at: at, nul: nul, into: &errors)
            }
        case .null, .bool, .number, .string:
            break
        }
    }

    /// The value `read` takes from the body, a JSON object, once every member was read: 422 for a member it did not
    /// read and for every error it recorded, before the handler does anything else.
    /// - Throws: as `object(_:errors:)`, and `ServiceError.validation` with every error recorded.
    static func read<Value>(_ request: Request, _ read: (inout JSONObjectReader) -> Value) throws(ServiceError) -> Value {
        let errors = FieldErrors()
        var body = try object(request, errors: errors)
        let value = read(&body)
        body.finish()
        try errors.check()
        return value
    }

    /// Parses the body and requires a JSON object.
    static func object(_ request: Request, errors: FieldErrors) throws(ServiceError) -> JSONObjectReader {
        let value = try parse(request)
        guard case .object = value else {
            throw .validation([Problem.FieldError(pointer: "", detail: "The body must be a JSON object, not \(value.typeName).")])
        }
        return JSONObjectReader(value, at: "", errors: errors)
    }
}
