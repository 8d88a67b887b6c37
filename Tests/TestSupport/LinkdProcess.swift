import Foundation

/// Runs the built `linkd` binary as a subprocess, the way conformance suites and operators run it.
public struct LinkdProcess {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The `linkd` executable next to the test bundle (`.build/<triple>/debug/linkd`).
    public static let executable: URL = {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("linkd"),
            Bundle.main.bundleURL.appendingPathComponent("linkd"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkd"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/linkd"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `linkd arguments...` with `input` on stdin.
    public static func run(_ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write and read concurrently so a large answer cannot fill the pipe while we are still writing.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errData = ErrorCollector(stderr.fileHandleForReading)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: errData.finish())
    }

    /// Writes `text` to a temporary file and returns its path.
    public static func temporaryFile(_ text: String, name: String = "aasa.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}

/// Drains a pipe on its own thread.
public final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written by the reader thread only before `done` is signalled, and read only after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    public func finish() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A test precondition that did not hold (a server that did not start, a status that was not expected).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
