import HTTPServer
import LinkKit

extension Response {
    /// A JSON resource with its ETag.
    static func resource(_ json: JSONValue, version: Int, status: Int = 200, location: String? = nil) -> Response {
        var response = Response.json(json.serializedBytes, status: status)
        response.headers.replaceOrAdd("ETag", ETag.header(version: version))
        if let location { response.headers.replaceOrAdd("Location", location) }
        return response
    }
}
