import Foundation
import Glibc
import Synchronization

/// A child process for tests (`linkd`, `python3`): `posix_spawn` with pipes, reaped with `waitpid`.
///
/// Not Foundation's `Process`: its `waitUntilExit` was seen to hang here on a child that had exited (a zombie
/// its SIGCHLD monitoring never reaped; `EmbeddedPostgres.ProcessRunner` met the same), which stalled the
/// whole test run. The pipes are close-on-exec and the child closes every descriptor above stderr, so no
/// other child (a PostgreSQL server started meanwhile) keeps a pipe open and its reader waiting for an end.
public final class Subprocess: @unchecked Sendable {
    // @unchecked: `pid` is set once in `init`; `exit` and the collected output are behind Mutexes.
    public let pid: pid_t
    private let exit = Mutex<Int32?>(nil)
    private let output: Collector
    private let errors: Collector?

    /// Starts `executable` (looked up in `PATH` when it has no slash) with `arguments`. `input` is written to its
    /// stdin, which is then closed (stdin is /dev/null without it); its stdout and stderr are collected (stderr
    /// into stdout's text when `mergeErrors`). `environment` is set over the test process's own environment; the
    /// child runs in `workingDirectory` when given, else in the test process's.
    public init(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil, mergeErrors: Bool = false,
        environment: [String: String] = [:], workingDirectory: String? = nil
    ) throws {
        Self.ignoreBrokenPipes
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = [] // the child has its copies once spawned: ours are closed
        defer { childEnds.forEach { close($0) } }
        /// A pipe one end of which becomes the child's `descriptor`; returns the other end, ours.
        func connect(_ descriptor: Int32, childReads: Bool) throws -> Int32 {
            var fds: [Int32] = [0, 0]
            guard Self.pipe2(&fds, O_CLOEXEC) == 0 else { throw TestFailure("pipe2: \(String(cString: strerror(errno)))") }
            let (childEnd, ours) = childReads ? (fds[0], fds[1]) : (fds[1], fds[0])
            posix_spawn_file_actions_adddup2(&actions, childEnd, descriptor)
            childEnds.append(childEnd)
            return ours
        }

        let stdinWriter = try input.map { _ in try connect(0, childReads: true) }
        if input == nil { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        let outputReader = try connect(1, childReads: false)
        let errorReader = mergeErrors ? nil : try connect(2, childReads: false)
        if mergeErrors { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        // glibc's GNU extension (hidden from Swift's Glibc module): close every descriptor from 3 on in the child.
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }

        if let workingDirectory {
            // glibc's posix_spawn_file_actions_addchdir_np, hidden from Swift's Glibc module as addclosefrom_np is.
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
                throw TestFailure("no posix_spawn_file_actions_addchdir_np")
            }
            typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, workingDirectory)
        }

        let argv = [executable] + arguments
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, set in set }
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            ([stdinWriter, outputReader, errorReader].compactMap { $0 }).forEach { close($0) }
            throw TestFailure("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        output = Collector(outputReader)
        errors = errorReader.map(Collector.init)
        if let stdinWriter, let input {
            // On its own thread, so a child answering while we write cannot fill its pipe and stall both.
            Thread {
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(stdinWriter, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { break }
                        offset += written
                    }
                }
                close(stdinWriter)
            }.start()
        }
    }

    /// A child that exits before reading all of its input must not take the test process down with SIGPIPE:
    /// the write fails with EPIPE instead.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// `pipe2(2)`, which Swift's Glibc module hides (a GNU extension): close-on-exec from the start, so a child
    /// spawned by another thread at that moment cannot inherit the pipe.
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "pipe2") else { preconditionFailure("glibc without pipe2") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// What the child wrote to stdout so far (and its stderr, when merged).
    public var standardOutput: String { output.text }
    /// What the child wrote to stderr so far.
    public var standardError: String { errors?.text ?? "" }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Sends `signal` (SIGTERM by default) unless the child has exited.
    public func signal(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to exit and its output to end; its exit status (128 + the signal when one ended it).
    /// - Throws: `TestFailure` when it is still running after `timeout` seconds (it is then killed).
    @discardableResult
    public func wait(timeout: Double = 120) throws -> Int32 {
        var status: Int32?
        guard
            eventually(
                timeout: timeout,
                {
                    status = reap(blocking: false)
                    return status != nil
                }), let status
        else {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
            throw TestFailure("\(pid) still running after \(timeout) s: \(standardOutput) \(standardError)")
        }
        // Its pipes end with it; a moment more for the readers to take the last bytes.
        output.waitForEnd(until: Date().addingTimeInterval(5))
        errors?.waitForEnd(until: Date().addingTimeInterval(5))
        return status
    }

    /// The exit status once the child has been reaped, nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        exit.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result == -1 && errno == EINTR
            guard result == pid else { return nil }
            // WIFEXITED / WEXITSTATUS are macros Swift cannot import: exit code in bits 8-15, signal in 0-6.
            known = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return known
        }
    }

    /// Reads one pipe to its end on a thread of its own.
    private final class Collector: @unchecked Sendable {
        // @unchecked: `bytes` is behind its Mutex; `ended` is a semaphore.
        private let bytes = Mutex<[UInt8]>([])
        private let ended = DispatchSemaphore(value: 0)

        init(_ descriptor: Int32) {
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    bytes.withLock { $0 += buffer[..<count] }
                }
                close(descriptor)
                ended.signal()
            }.start()
        }

        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

        func waitForEnd(until deadline: Date) {
            if ended.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success { ended.signal() }
        }
    }
}
