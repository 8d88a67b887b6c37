import Foundation
import Glibc

extension Subprocess {
    /// The lines of standard output read so far that start with `prefix`.
    public func lines(startingWith prefix: String) -> [Substring] {
        standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// `lines(startingWith:)` once it holds `count` lines, or after `seconds` with what came: a server that reports
    /// what it did reaches this process a moment after its client saw it done.
    public func lines(startingWith prefix: String, awaiting count: Int, seconds: Double = patience) -> [Substring] {
        var seen: [Substring] = []
        _ = eventually(timeout: seconds) {
            seen = lines(startingWith: prefix)
            return seen.count >= count
        }
        return seen
    }

    /// The first line of standard output, once it starts with `prefix` (a server saying where it listens); the
    /// process is killed, and the error says what it printed, when it exits or says nothing such in `seconds`.
    public func firstLine(startingWith prefix: String, seconds: Double = patience) throws -> Substring {
        var first: Substring?
        let said = eventually(timeout: seconds) {
            if let line = standardOutput.split(separator: "\n").first, line.hasPrefix(prefix) { first = line }
            return first != nil || !isRunning
        }
        guard said, let first else {
            signal(SIGKILL)
            throw TestFailure("the test server did not start: \(standardOutput) \(standardError)")
        }
        return first
    }

    /// The port a test server says it listens on (its first line, `port N`); the process is killed, and the error
    /// names `server` and what it said, when that line does not come or holds no number.
    public func announcedPort(of server: String) throws -> Int {
        let line = try firstLine(startingWith: "port ")
        guard let port = Int(line.dropFirst(5)) else {
            signal(SIGKILL)
            throw TestFailure("\(server) said \(line)")
        }
        return port
    }
}
