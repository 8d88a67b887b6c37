import HTTPServer
import LinkKit

/// A LinkKit validation failure in a request: 422 with the pointer LinkKit gave (or the body root).
extension LinkKitError: ProblemConvertible {
    public var problem: Problem {
        ServiceError.validation([Problem.FieldError(pointer: pointer ?? "", detail: message)]).problem
    }
}
