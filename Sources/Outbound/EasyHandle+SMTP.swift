import CCurl
import CCurlShim
import Foundation

extension EasyHandle {
    /// Sends `message` (an RFC 5322 message) from `from` to `to` through the server of `settings`: libcurl's SMTP,
    /// `smtps://` or STARTTLS as `settings` say, bounded by its timeouts.
    func sendMail(_ message: [UInt8], from: String, to: String, settings: SMTPSettings) -> Result<Void, OutboundFailure> {
        guard let url = settings.url else { return .failure(OutboundFailure(.refusedTarget, "no SMTP server is configured")) }
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let source = MailSource(message)
        let recipients = CurlStringList(["<\(to)>"])
        let code: CURLcode = withExtendedLifetime((source, recipients)) {
            let context = Unmanaged.passUnretained(source).toOpaque()
            let useSSL: Int =
                switch settings.startTLS {
                case .required: Int(CURLUSESSL_ALL.rawValue)
                case .ifOffered: Int(CURLUSESSL_TRY.rawValue)
                case .off: Int(CURLUSESSL_NONE.rawValue)
                }
            let steps: [() -> CURLcode] = [
                { linkd_curl_set_pointer(self.handle, CURLOPT_ERRORBUFFER, self.errorBuffer) },
                { linkd_curl_set_pointer(self.handle, CURLOPT_URL, url) },
                { linkd_curl_set_long(self.handle, CURLOPT_NOSIGNAL, 1) },
                { linkd_curl_set_pointer(self.handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps") },
                // smtps:// is TLS from the first byte; for smtp:// this decides STARTTLS.
                { linkd_curl_set_long(self.handle, CURLOPT_USE_SSL, useSSL) },
                { linkd_curl_set_long(self.handle, CURLOPT_SSL_VERIFYPEER, 1) },
                { linkd_curl_set_long(self.handle, CURLOPT_SSL_VERIFYHOST, 2) },
                { settings.caFile.map { linkd_curl_set_pointer(self.handle, CURLOPT_CAINFO, $0) } ?? CURLE_OK },
                { linkd_curl_set_pointer(self.handle, CURLOPT_PROXY, "") },
                { linkd_curl_set_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout)) },
                { linkd_curl_set_long(self.handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout)) },
                { linkd_curl_set_pointer(self.handle, CURLOPT_MAIL_FROM, "<\(from)>") },
                { linkd_curl_set_pointer(self.handle, CURLOPT_MAIL_RCPT, recipients.head) },
                // "CURLOPT_UPLOAD: … for SMTP, the data is the mail", read through the read callback.
                { linkd_curl_set_long(self.handle, CURLOPT_UPLOAD, 1) },
                { linkd_curl_set_offset(self.handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)) },
                { linkd_curl_set_read_function(self.handle, mailSourceRead) },
                { linkd_curl_set_pointer(self.handle, CURLOPT_READDATA, context) },
            ]
            for step in steps {
                let code = step()
                guard code == CURLE_OK else { return code }
            }
            return curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            let message = errorBuffer[0] == 0 ? Curl.describe(code) : String(cString: errorBuffer)
            return .failure(OutboundFailure(OutboundFailure.kind(of: code), message))
        }
        return .success(())
    }
}

/// The bytes of a message being uploaded (`CURLOPT_READDATA`), handed out from where the last read stopped.
final class MailSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// `CURLOPT_READFUNCTION`: "copy at most size * nitems bytes into buffer … return the number of bytes stored; 0
/// signals end-of-file". A plain function: libcurl calls it on the sending thread, with the `MailSource` in
/// `context`.
func mailSourceRead(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    return Unmanaged<MailSource>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: size * count)
}
