import Foundation
import LinkService

/// `<data-dir>/webhook-secret.key`: the key sealing webhook secrets when `--webhook-secret-key` is not given, made
/// on first use (32 random bytes, id `local`, mode 0600) and read on every later start, so a single node or a
/// laptop needs no configuration. Several nodes must share keys: they pass `--webhook-secret-key` (docs/WEBHOOKS.md).
struct WebhookKeyFile {
    let url: URL

    init(_ dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("webhook-secret.key")
    }

    /// The key the file holds, made first when there is none.
    /// - Throws: `Arguments.UsageError` when the file cannot be read or written or does not hold one key.
    func key() throws -> WebhookSecretKeys.Key {
        if let text = try? String(contentsOf: url, encoding: .utf8) {
            guard let key = WebhookSecretKeys.Key(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Arguments.UsageError(description: "\(url.path) does not hold a webhook key (ID:BASE64 of 32 bytes)")
            }
            return key
        }
        let key = WebhookSecretKeys.Key.generate(id: "local")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard
                FileManager.default.createFile(
                    atPath: url.path, contents: Data((key.text + "\n").utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw Arguments.UsageError(
                description: "cannot write the webhook key file \(url.path): \(error.localizedDescription); "
                    + "pass --webhook-secret-key instead")
        }
        return key
    }
}
