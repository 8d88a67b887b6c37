import CCurl

/// libcurl's process-wide state: `curl_global_init` runs once, before the first handle or URL is made.
enum Curl {
    /// Touching it runs `curl_global_init` (a `static let` is initialised once, under a lock). Never cleaned up:
    /// the process ends with it.
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// libcurl's version, as `curl_version_info` reports it: `7.88.1`.
    static var version: String {
        _ = initialized
        guard let info = curl_version_info(CURLVERSION_FIRST), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }

    /// libcurl's one-line description of `code`.
    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
