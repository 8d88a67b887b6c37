import CCurl

/// A libcurl string list (`struct curl_slist`: request headers, `CURLOPT_RESOLVE` entries), freed with its owner.
/// libcurl reads it during a transfer without changing it, so one list may serve concurrent transfers.
final class CurlStringList: @unchecked Sendable {
    // @unchecked: the list is built in `init` and only read afterwards.
    let head: UnsafeMutablePointer<curl_slist>?

    init(_ entries: [String]) {
        var head: UnsafeMutablePointer<curl_slist>?
        for entry in entries {
            // curl_slist_append copies the string; on allocation failure it returns NULL and leaves the list as it was.
            if let longer = curl_slist_append(head, entry) { head = longer }
        }
        self.head = head
    }

    deinit { curl_slist_free_all(head) }
}
