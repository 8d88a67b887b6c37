import Foundation
import Glibc

/// How long a test waits for something it expects to happen before it gives up: long enough that a slow or
/// busy machine (two shared cores running the suites side by side) only makes a test slower, never fail.
public let patience: Double = 60

/// Polls `condition` every 10 ms until it holds, for up to `timeout` seconds; whether it held. A test waits on
/// the condition it then asserts, never for a fixed time: `#expect(eventually { batcher.counters.written == 5 })`
/// (the expectation names what was awaited when it fails).
public func eventually(timeout: Double = patience, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// `eventually`, for a wait the test cannot go on without (a server started, a row written).
/// - Parameter what: what is awaited, for the failure ("the hit written"); read only when the wait fails, so it
///   may describe the state at that moment.
/// - Throws: `TestFailure` saying what was awaited, when `condition` still does not hold after `timeout` seconds.
public func waitUntil(_ what: @autoclosure () -> String, timeout: Double = patience, _ condition: () throws -> Bool) throws {
    guard try eventually(timeout: timeout, condition) else {
        throw TestFailure("gave up after \(Int(timeout)) s waiting for \(what())")
    }
}
