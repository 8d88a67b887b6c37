import HTTPServer
import LinkKit

/// The body of `POST /v1/links/bulk`: a JSON array of links (`application/json`) or one link a line
/// (`application/x-ndjson`, blank lines skipped), each the body of `POST /v1/links`, up to `maxItems`. Item `N`
/// (from 0, in the array or among the non-blank lines) is at the pointer `/N`.
enum LinkBulkBody {
    static let maxItems = 100_000
    /// What 100,000 links of a few hundred bytes each need, with room to spare.
    static let maxBytes = 64 << 20
    static let ndjson = "application/x-ndjson"

    /// One item: its JSON at its pointer, or the problem that refuses it already (a line that is not JSON, text
    /// holding a NUL).
    enum Entry {
        case value(JSONValue, pointer: String)
        case refused(Problem)
    }

    /// The items of the request's body.
    /// - Throws: `ServiceError` 415 for another media type, 400 for an empty body or (as an array) one that is not
    ///   JSON, 422 for a body that is not an array, or more than `maxItems` items.
    static func entries(_ request: Request) throws -> [Entry] {
        let mediaType = JSONBody.mediaType(of: request)
        if mediaType == ndjson { return try lines(request.body) }
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw Problem.unsupportedMediaType.with(detail: "Send the links as a JSON array (application/json) or one a line (\(ndjson)).")
        }
        guard !request.body.isEmpty else { throw ServiceError.badRequest("The request needs a JSON array of links.") }
        guard case .array(let elements) = try JSONBody.parse(bytes: request.body, what: "The body") else {
            throw ServiceError.validation([
                .init(pointer: "", detail: "The body must be a JSON array of links (or \(ndjson), one link a line).")
            ])
        }
        try checkCount(elements.count)
        let mayHoldNUL = JSONBody.mayHoldNUL(request.body)
        return Array(elements.enumerated()).concurrentMap { index, element in entry(element, at: "/\(index)", mayHoldNUL: mayHoldNUL) }
    }

    private static func lines(_ body: [UInt8]) throws -> [Entry] {
        // The non-blank lines with their numbers, then each parsed on its own (on every core).
        var lines: [(number: Int, text: ArraySlice<UInt8>)] = []
        for (index, line) in body.split(separator: 10, omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) {
            lines.append((index + 1, line))
            try checkCount(lines.count)
        }
        return Array(lines.enumerated()).concurrentMap { item, line in
            let pointer = "/\(item)"
            switch Result(catching: { () throws(ServiceError) -> JSONValue in
                try JSONBody.parse(bytes: line.text, what: "Line \(line.number)")
            }) {
            case .success(let value):
                return entry(value, at: pointer, mayHoldNUL: JSONBody.mayHoldNUL(line.text))
            case .failure(let error):
                var problem = error.problem
                problem.errors = [Problem.FieldError(pointer: pointer, detail: problem.detail ?? "Not JSON.")]
                return .refused(problem)
            }
        }
    }

    private static func entry(_ value: JSONValue, at pointer: String, mayHoldNUL: Bool) -> Entry {
        let errors = JSONBody.refusals(in: value, at: pointer, nul: mayHoldNUL)
        if !errors.isEmpty { return .refused(ServiceError.validation(errors).problem) }
        return .value(value, pointer: pointer)
    }

    private static func checkCount(_ count: Int) throws {
        guard count <= maxItems else {
            throw ServiceError.validation([.init(pointer: "", detail: "A bulk request holds at most \(maxItems) links; split the file.")])
        }
    }
}
