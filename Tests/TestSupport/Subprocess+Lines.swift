import Foundation
import Glibc

extension Subprocess {
    /// The lines of standard output read so far that start with `prefix`.
    public func lines(startingWith prefix: String) -> [Substring] {
        standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// `lines(startingWith:)` once it holds `count` lines, or after `seconds` with what came: a server that reports
    /// what it did reaches this process a moment after its client saw it done.
    public func lines(startingWith prefix: String, awaiting count: Int, seconds: Double) -> [Substring] {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = lines(startingWith: prefix)
        while seen.count < count && Date() < deadline {
            usleep(10_000)
            seen = lines(startingWith: prefix)
        }
        return seen
    }

    /// The first line of standard output, once it starts with `prefix` (a server saying where it listens); the
    /// process is killed, and the error says what it printed, when it exits or says nothing such in `seconds`.
    public func firstLine(startingWith prefix: String, seconds: Double = 10) throws -> Substring {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let line = standardOutput.split(separator: "\n").first, line.hasPrefix(prefix) { return line }
            guard Date() < deadline, isRunning else {
                signal(SIGKILL)
                throw TestFailure("the test server did not start: \(standardOutput) \(standardError)")
            }
            usleep(10_000)
        }
    }
}
