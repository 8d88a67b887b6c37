import Foundation
import HTTPServer
import LinkKit

/// The JSON body of a request: media type checked (415), syntax checked (400 with the position), and
/// the root required to be an object (422).
enum JSONBody {
    /// Parses the body.
    /// - Throws: `ServiceError.unsupportedMediaType` for another `Content-Type`, `.badRequest` for an empty or
    ///   malformed body, `.validation` when the root is not an object.
    static func parse(_ request: Request) throws(ServiceError) -> JSONValue {
        let contentType = request.headers["Content-Type"]?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard contentType == "application/json" || contentType.hasSuffix("+json") else {
            throw .unsupportedMediaType
        }
        guard !request.body.isEmpty else { throw .badRequest("The request needs a JSON body.") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: request.body)
        } catch {
            throw .badRequest("The body is not valid JSON: \(error.message)")
        }
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
