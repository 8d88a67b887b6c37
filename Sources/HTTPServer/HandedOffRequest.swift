import CMicroHTTPD
import Synchronization

/// A request running on a handoff thread (`Handoff`) while its connection is suspended: the answer it makes, which
/// the worker queues when libmicrohttpd calls the access handler again after the resume.
///
/// `@unchecked Sendable`: `connection` is only resumed (`MHD_resume_connection`, "safe to resume a suspended
/// connection at any time"), once, by the thread that finishes the request; the answer is behind a lock.
final class HandedOffRequest: @unchecked Sendable {
    private let connection: OpaquePointer
    let method: HTTPMethod
    private let answer = Mutex<Response?>(nil)

    init(connection: OpaquePointer, method: HTTPMethod) {
        self.connection = connection
        self.method = method
    }

    /// Keeps `response` and resumes the connection; libmicrohttpd then calls the access handler again.
    func finish(_ response: Response) {
        answer.withLock { $0 = response }
        MHD_resume_connection(connection)
    }

    /// The answer, once made (nil before: a call of the access handler that was not the resume's).
    func take() -> Response? {
        answer.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }
}
