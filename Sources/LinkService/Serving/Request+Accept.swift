import Foundation
import HTTPServer

extension Request {
    /// Whether the client asks for HTML: an `Accept` media range `text/html` (any case, any parameters but
    /// `q=0`), as every browser sends on a navigation. Without it (no `Accept`, `*/*`, `application/json`) the
    /// client is an API client and gets problem+json.
    var acceptsHTML: Bool {
        headers.values("Accept").contains { field in
            field.split(separator: ",").contains { range in
                let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard parts.first == "text/html" else { return false }
                return !parts.dropFirst().contains {
                    $0.replacingOccurrences(of: " ", with: "").range(of: #"^q=0(\.0*)?$"#, options: .regularExpression) != nil
                }
            }
        }
    }
}
