import Foundation

/// Sends mail through one SMTP server (`SMTPSettings`) with libcurl: one message, one recipient and one
/// connection a call, bounded in time. Blocking: call it off the request threads (LinkService's `Mailer`).
public final class SMTPClient: Sendable {
    public let settings: SMTPSettings

    public init(settings: SMTPSettings) {
        self.settings = settings
    }

    /// Sends `mail`; the failure says why it was not accepted (no connection, TLS, refused by the server, time).
    public func send(_ mail: Mail) -> Result<Void, OutboundFailure> {
        guard Mail.isAddress(mail.from), Mail.isAddress(mail.to) else {
            return .failure(OutboundFailure(.other, "the sender or the recipient is not a mail address"))
        }
        guard let handle = EasyHandle() else { return .failure(OutboundFailure(.other, "libcurl could not make a handle")) }
        let domain = mail.from.split(separator: "@").last.map(String.init) ?? "localhost"
        let message = mail.rendered(date: Date(), messageID: "\(UUID().uuidString.lowercased())@\(domain)")
        return handle.sendMail(message, from: mail.from, to: mail.to, settings: settings)
    }
}
