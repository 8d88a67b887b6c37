import Foundation

/// Runs the built `linkd` binary as a subprocess, the way conformance suites and operators run it.
public struct LinkdProcess {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The `linkd` executable next to the test bundle (`.build/<triple>/debug/linkd`), or `LINKD_EXECUTABLE`
    /// (e.g. a release build, for the figures of the fault tests).
    public static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["LINKD_EXECUTABLE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("linkd"),
            Bundle.main.bundleURL.appendingPathComponent("linkd"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkd"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/linkd"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `linkd arguments...` with `input` on stdin and `environment` set over the test process's: the built
    /// `linkd` unless `copy` names another, in `workingDirectory` when given.
    public static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], copy: URL? = nil,
        workingDirectory: String? = nil
    ) throws -> Result {
        let process = try Subprocess(
            (copy ?? executable).path, arguments, input: Array(input.utf8), environment: environment,
            workingDirectory: workingDirectory)
        let status = try process.wait()
        return Result(status: status, stdout: process.standardOutput, stderr: process.standardError)
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

/// A test precondition that did not hold (a server that did not start, a status that was not expected).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
