#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

/// Typed fronts of libcurl's C-variadic `curl_easy_setopt` and `curl_easy_getinfo`, which Swift cannot call.
/// Each passes its argument as the type the option takes (`long`, `curl_off_t`, a pointer, a function).

CURLcode linkd_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode linkd_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
/// A string (libcurl copies it), a `struct curl_slist *` (kept by the caller until the transfer ends), a
/// `CURLU *`, the error buffer, or a callback's user data.
CURLcode linkd_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
/// `CURLOPT_WRITEFUNCTION`.
CURLcode linkd_curl_set_write_function(CURL *handle, curl_write_callback callback);
/// `CURLOPT_READFUNCTION`: where an upload's bytes come from (an SMTP message).
CURLcode linkd_curl_set_read_function(CURL *handle, curl_read_callback callback);
/// `CURLOPT_OPENSOCKETFUNCTION`: makes each socket libcurl connects, given the address it is for.
CURLcode linkd_curl_set_opensocket_function(CURL *handle, curl_opensocket_callback callback);
/// `CURLOPT_PREREQFUNCTION` (7.80+): called once a connection, new or reused, is ready, before the request is sent.
CURLcode linkd_curl_set_prereq_function(CURL *handle, curl_prereq_callback callback);

CURLcode linkd_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode linkd_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);
/// A string owned by the handle (NULL when absent), valid until the handle is reset or cleaned up.
CURLcode linkd_curl_get_string(CURL *handle, CURLINFO info, const char **value);

#endif
