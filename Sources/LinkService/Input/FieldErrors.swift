import HTTPServer

/// Collects every validation failure of one request, so the client hears about all of them at once.
final class FieldErrors {
    private(set) var list: [Problem.FieldError] = []

    func add(_ pointer: String, _ detail: String) {
        list.append(Problem.FieldError(pointer: pointer, detail: detail))
    }

    var isEmpty: Bool { list.isEmpty }

    /// - Throws: `ServiceError.validation` when anything was collected.
    func check() throws(ServiceError) {
        if !list.isEmpty { throw .validation(list) }
    }
}
