import ByteText
import Foundation

/// A token's row: the line `COPY click_tokens (ClickTokenStore.columns) FROM STDIN` reads, made once on the request
/// thread and then journaled, queued and sent as it is (docs/ANDROID.md, "Click tokens").
extension ClickTokens {
    /// What every token of one landing page is stored with, made once with the page (`LandingPage.Template`): the
    /// row's fields after the token's hash (workspace, domain, link, platform, resolve answer), escaped, each after
    /// its tab.
    final class Stem: Sendable {
        let bytes: [UInt8]

        init(workspace: UUID, domain: UUID, url: String, platform: String, answer: [UInt8]) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(answer.count + url.utf8.count + 90)
            bytes.append(9)
            bytes.append(contentsOf: workspace.canonicalText.utf8)
            bytes.append(9)
            bytes.append(contentsOf: domain.canonicalText.utf8)
            bytes.append(9)
            SpoolEscaping.append(url, to: &bytes)
            bytes.append(9)
            bytes.append(contentsOf: platform.utf8)
            bytes.append(9)
            SpoolEscaping.append(bytes: answer, to: &bytes)
            self.bytes = bytes
        }
    }

    /// The row of `token` (its hash in hex first) and its page's `stem`, with its newline.
    static func row(
        token: String, stem: Stem, country: String?, os: String?, createdMicros: Int64, expiresMicros: Int64
    ) -> [UInt8] {
        var row: [UInt8] = []
        row.reserveCapacity(64 + stem.bytes.count + 2 * (ClickTokenJournal.timestampLength + 1) + 120)
        Hex.append(SHA256.digest(token.utf8), to: &row)
        row.append(contentsOf: stem.bytes)
        for text in [country, os.map { String($0.prefix(100)) }] {
            row.append(9)
            SpoolEscaping.append(text?.isEmpty == false ? text : nil, to: &row)
        }
        row.append(9)
        ClickTokenJournal.appendTimestamp(micros: createdMicros, to: &row)
        row.append(9)
        ClickTokenJournal.appendTimestamp(micros: expiresMicros, to: &row)
        row.append(10)
        return row
    }
}
