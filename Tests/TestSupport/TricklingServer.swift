import Foundation
import Glibc

/// An HTTP server on 127.0.0.1 that answers one byte every half second (`Servers/trickle_server.py`): each wait
/// for a byte is short, the whole answer never comes, so only a deadline on the whole answer gives up on it (a
/// timeout per read does not). Killed with its owner.
public final class TricklingServer: @unchecked Sendable {
    // @unchecked: `process` and `port` are set once in `init`.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/trickle_server.py").path

    let process: Subprocess
    public let port: Int

    public init() throws {
        process = try Subprocess("/usr/bin/python3", [Self.script])
        port = try process.announcedPort(of: "the trickling server")
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }
}
