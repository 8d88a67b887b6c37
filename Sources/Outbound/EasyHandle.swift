import CCurl
import CCurlShim

/// One libcurl easy handle with its error buffer, used by one request at a time (`HTTPClient` lends it out).
final class EasyHandle: @unchecked Sendable {
    // @unchecked: a handle is held by the client's pool or by the one request that borrowed it, never by two.
    let handle: UnsafeMutableRawPointer
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// Everything one request sets.
    struct Transfer {
        var url: String
        var method: OutboundRequest.Method
        var headers: [String]
        /// A POST's body (empty when nil).
        var body: [UInt8]?
        var connectTimeout: Duration
        var timeout: Duration
        var maxBodyBytes: Int
        var truncateBody: Bool
        var resolve: CurlStringList
        var caFile: String?
        var userAgent: String
        /// When set, judges every address connected to (`AddressGuard`).
        var policy: AddressPolicy?
    }

    init?() {
        guard Curl.initialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs `transfer` and reads the answer.
    func perform(_ transfer: Transfer) -> Result<OutboundResponse, OutboundFailure> {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let sink = BodySink(limit: transfer.maxBodyBytes, truncates: transfer.truncateBody)
        let headers = CurlStringList(transfer.headers)
        let guarding = transfer.policy.map(AddressGuard.init(policy:))
        let code: CURLcode = withExtendedLifetime((sink, headers, transfer.resolve, guarding)) {
            let configured = configure(transfer, sink: sink, headers: headers, guarding: guarding)
            guard configured == CURLE_OK else { return configured }
            return curl_easy_perform(handle)
        }
        if let guarding, !guarding.refusals.isEmpty, code == CURLE_COULDNT_CONNECT || code == CURLE_ABORTED_BY_CALLBACK {
            return .failure(OutboundFailure(.refusedAddress, guarding.refusals.joined(separator: "; ")))
        }
        if sink.exceeded {
            guard sink.truncates else {
                return .failure(OutboundFailure(.tooLarge, "the body is larger than \(transfer.maxBodyBytes) bytes"))
            }
            // The write callback stopped the transfer at the limit: the answer is whole but for its body.
            var answer = response(body: sink.bytes)
            answer.bodyTruncated = true
            return .success(answer)
        }
        guard code == CURLE_OK else {
            let message = errorBuffer[0] == 0 ? Curl.describe(code) : String(cString: errorBuffer)
            return .failure(OutboundFailure(OutboundFailure.kind(of: code), message))
        }
        return .success(response(body: sink.bytes))
    }

    /// Sets every option of `transfer`; the first setting libcurl refuses ends it.
    private func configure(_ transfer: Transfer, sink: BodySink, headers: CurlStringList, guarding: AddressGuard?) -> CURLcode {
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var steps: [() -> CURLcode] = [
            { linkd_curl_set_pointer(self.handle, CURLOPT_ERRORBUFFER, self.errorBuffer) },
            { linkd_curl_set_pointer(self.handle, CURLOPT_URL, transfer.url) },
            // Timeouts without SIGALRM: libcurl is used from many threads (and resolves on a thread of its own).
            { linkd_curl_set_long(self.handle, CURLOPT_NOSIGNAL, 1) },
            { linkd_curl_set_pointer(self.handle, CURLOPT_PROTOCOLS_STR, "http,https") },
            { linkd_curl_set_pointer(self.handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") },
            { linkd_curl_set_long(self.handle, CURLOPT_FOLLOWLOCATION, 0) },
            { linkd_curl_set_long(self.handle, CURLOPT_SSL_VERIFYPEER, 1) },
            { linkd_curl_set_long(self.handle, CURLOPT_SSL_VERIFYHOST, 2) },
            // An empty proxy turns off the proxies named by the environment (http_proxy, HTTPS_PROXY, ALL_PROXY).
            { linkd_curl_set_pointer(self.handle, CURLOPT_PROXY, "") },
            { linkd_curl_set_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(transfer.connectTimeout)) },
            { linkd_curl_set_long(self.handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(transfer.timeout)) },
            // A declared Content-Length above the limit fails before the body is read; the write callback stops
            // a body without one. A truncated body is read up to the limit whatever its length.
            {
                transfer.truncateBody
                    ? CURLE_OK
                    : linkd_curl_set_offset(self.handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.maxBodyBytes))
            },
            { linkd_curl_set_pointer(self.handle, CURLOPT_USERAGENT, transfer.userAgent) },
            { linkd_curl_set_pointer(self.handle, CURLOPT_HTTPHEADER, headers.head) },
            { linkd_curl_set_pointer(self.handle, CURLOPT_RESOLVE, transfer.resolve.head) },
            { transfer.caFile.map { linkd_curl_set_pointer(self.handle, CURLOPT_CAINFO, $0) } ?? CURLE_OK },
            { linkd_curl_set_write_function(self.handle, bodySinkWrite) },
            { linkd_curl_set_pointer(self.handle, CURLOPT_WRITEDATA, context) },
        ]
        switch transfer.method {
        case .get:
            steps.append { linkd_curl_set_long(self.handle, CURLOPT_HTTPGET, 1) }
        case .post:
            // The size first, so that COPYPOSTFIELDS copies that many bytes (NULs included) rather than a C
            // string; the trailing NUL gives an empty body a pointer to copy from.
            let body = (transfer.body ?? []) + [0]
            steps.append { linkd_curl_set_long(self.handle, CURLOPT_POST, 1) }
            steps.append { linkd_curl_set_offset(self.handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count - 1)) }
            steps.append { body.withUnsafeBytes { linkd_curl_set_pointer(self.handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) } }
        }
        if let guarding {
            let guardContext = Unmanaged.passUnretained(guarding).toOpaque()
            steps.append { linkd_curl_set_opensocket_function(self.handle, addressGuardOpenSocket) }
            steps.append { linkd_curl_set_pointer(self.handle, CURLOPT_OPENSOCKETDATA, guardContext) }
            steps.append { linkd_curl_set_prereq_function(self.handle, addressGuardPrerequest) }
            steps.append { linkd_curl_set_pointer(self.handle, CURLOPT_PREREQDATA, guardContext) }
        }
        for step in steps {
            let code = step()
            guard code == CURLE_OK else { return code }
        }
        return CURLE_OK
    }

    /// The answer of the transfer just performed.
    private func response(body: [UInt8]) -> OutboundResponse {
        var status = 0, port = 0
        var totalMicroseconds: curl_off_t = 0
        withUnsafeMutablePointer(to: &status) { _ = linkd_curl_get_long(handle, CURLINFO_RESPONSE_CODE, $0) }
        withUnsafeMutablePointer(to: &port) { _ = linkd_curl_get_long(handle, CURLINFO_PRIMARY_PORT, $0) }
        _ = linkd_curl_get_offset(handle, CURLINFO_TOTAL_TIME_T, &totalMicroseconds)
        return OutboundResponse(
            status: status,
            contentType: header("Content-Type"), location: header("Location"), etag: header("ETag"),
            lastModified: header("Last-Modified"), cacheControl: header("Cache-Control"), age: header("Age"),
            body: body,
            effectiveURL: string(CURLINFO_EFFECTIVE_URL) ?? "",
            redirectURL: string(CURLINFO_REDIRECT_URL),
            remoteAddress: string(CURLINFO_PRIMARY_IP) ?? "",
            remotePort: port,
            duration: .microseconds(totalMicroseconds))
    }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard linkd_curl_get_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Every field `name` of the last response's header (not of a 1xx before it, not a trailer), joined with `, `.
    private func header(_ name: String) -> String? {
        var values: [String] = []
        var index = 0
        while true {
            var found: UnsafeMutablePointer<curl_header>?
            guard curl_easy_header(handle, name, index, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let found else { break }
            values.append(String(cString: found.pointee.value))
            index += 1
            if index >= found.pointee.amount { break }
        }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
