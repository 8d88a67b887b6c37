import Foundation
import Glibc

/// `linkd serve`'s claim on the data directory of its embedded cluster: an exclusive `flock` on
/// `<data-dir>/serve.lock`, taken before the cluster is touched and held for the life of the process (the kernel
/// drops it when the process ends, a crash included). A second server on the same directory therefore refuses
/// at once, instead of adopting the first one's cluster and stopping it on its way out.
final class DataDirectoryLock {
    /// Another process holds the lock.
    struct InUse: Error, CustomStringConvertible {
        let directory: String
        let holder: String?

        var description: String {
            "the data directory \(directory) is already in use by another linkd serve"
                + (holder.map { " (pid \($0))" } ?? "") + "; stop it first, or give this one another --data-dir"
        }
    }

    private let descriptor: Int32

    /// Takes the lock, creating the directory and the lock file when missing, and writes this process's id in it.
    /// - Throws: `InUse` when another process holds it; `CocoaError`/`POSIXError` when the file cannot be opened.
    init(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("serve.lock").path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // flock(2): "LOCK_NB: Return an error instead of blocking"; the lock goes with the descriptor at exit.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw InUse(directory: directory.path, holder: holder?.isEmpty == false ? holder : nil)
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
