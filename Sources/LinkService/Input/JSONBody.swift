import Foundation
import HTTPServer
import LinkKit

/// The JSON body of a request: media type checked (415), syntax checked (400 with the position), no NUL
/// character anywhere (422), and the root required to be an object (422).
enum JSONBody {
    /// Parses the body.
    /// - Throws: `ServiceError.unsupportedMediaType` for another `Content-Type`, `.badRequest` for an empty or
    ///   malformed body, `.validation` with a pointer to every string or key holding `\u0000` (PostgreSQL stores
    ///   no NUL in `text` or `jsonb`: it is refused here, once for every resource, instead of failing there).
    static func parse(_ request: Request) throws(ServiceError) -> JSONValue {
        let contentType = mediaType(of: request)
        guard contentType == "application/json" || contentType.hasSuffix("+json") else {
            throw .unsupportedMediaType
        }
        guard !request.body.isEmpty else { throw .badRequest("The request needs a JSON body.") }
        let value = try parse(bytes: request.body, what: "The body")
        // A NUL reaches a string only through the escape `\u0000` (a raw one is a JSON syntax error): bodies
        // without that text are not walked.
        if mayHoldNUL(request.body) {
            let pointers = nulErrors(in: value, at: "")
            if !pointers.isEmpty { throw .validation(pointers) }
        }
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

    /// An error for every string and member name under `value` (at `pointer`) holding a NUL character.
    static func nulErrors(in value: JSONValue, at pointer: String) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        collectNUL(in: value, at: pointer, into: &errors)
        return errors
    }

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

    /// Every string and object key under `value` that holds a NUL character.
    private static func collectNUL(in value: JSONValue, at pointer: String, into errors: inout [Problem.FieldError]) {
        switch value {
        case .string(let text) where text.utf8.contains(0):
            errors.append(Problem.FieldError(pointer: pointer, detail: "The text contains a NUL character (\\u0000), which linkd does not accept."))
        case .array(let elements):
            for (index, element) in elements.enumerated() { collectNUL(in: element, at: JSONPointer.appending(pointer, index), into: &errors) }
        case .object(let members):
            for member in members {
                let at = JSONPointer.appending(pointer, member.key)
                if member.key.utf8.contains(0) {
                    errors.append(Problem.FieldError(pointer: at, detail: "The member name contains a NUL character (\\u0000), which linkd does not accept."))
                }
                collectNUL(in: member.value, at: at, into: &errors)
            }
        case .null, .bool, .number, .string:
            break
        }
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
