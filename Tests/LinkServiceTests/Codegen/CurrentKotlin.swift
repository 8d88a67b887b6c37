import Foundation
import Testing
import TestSupport

/// A current Kotlin compiler beside Debian's `kotlinc` 1.3.31 (the oldest docs/CODEGEN.md promises): the one PyPI's
/// `kotlin-jupyter-kernel` carries as jars, installed by scripts/install-deps in `.build/kotlin-jupyter-kernel-venv`.
/// Run as `java -cp <compiler jar> org.jetbrains.kotlin.cli.jvm.K2JVMCompiler`, with its own standard library.
enum CurrentKotlin {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The compiler jar and the standard library jar, when installed.
    static let jars: (compiler: String, stdlib: String)? = {
        let lib = root.appendingPathComponent(".build/kotlin-jupyter-kernel-venv/lib")
        let files = FileManager.default
        for python in (try? files.contentsOfDirectory(atPath: lib.path)) ?? [] {
            let directory = lib.appendingPathComponent(python).appendingPathComponent("site-packages/run_kotlin_kernel/jars")
            let names = (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
            if let compiler = names.first(where: { $0.hasPrefix("kotlin-jupyter-kernel-") && $0.hasSuffix("-all.jar") }),
                let stdlib = names.first(where: { $0.hasPrefix("kotlin-stdlib-") && $0.hasSuffix(".jar") })
            {
                return (directory.appendingPathComponent(compiler).path, directory.appendingPathComponent(stdlib).path)
            }
        }
        return nil
    }()

    /// The jars, or nil with a note when they are missing outside CI; under CI (`CI=true`) a missing compiler fails.
    static func required() throws -> (compiler: String, stdlib: String)? {
        if let jars { return jars }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw TestFailure("the current Kotlin compiler is missing: run scripts/install-deps (kotlin-jupyter-kernel)")
        }
        FileHandle.standardError.write(
            Data("note: skipping the current Kotlin compiler (run scripts/install-deps to install kotlin-jupyter-kernel)\n".utf8))
        return nil
    }

    /// Compiles `files` into the class directory `out` with warnings as errors; the driver's classes are then run
    /// with `java -cp out:stdlib MainKt`.
    static func compile(_ files: [String], into out: String, jars: (compiler: String, stdlib: String)) throws {
        try GeneratedRouterTests.compile(
            "/usr/bin/env",
            [
                "java", "-Xmx1g", "-cp", jars.compiler, "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
                "-Werror", "-no-stdlib", "-no-reflect", "-cp", jars.stdlib, "-d", out,
            ] + files)
    }
}
