#ifndef HEATMAPKIT_CCURL_SHIM_H
#define HEATMAPKIT_CCURL_SHIM_H
#include <curl/curl.h>

/// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these take one
/// argument of each kind the tile fetches set or read.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode ccurl_setopt_write(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline long ccurl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}
static inline void *ccurl_private(CURL *handle) {
    char *value = 0;
    if (curl_easy_getinfo(handle, CURLINFO_PRIVATE, &value) != CURLE_OK) return 0;
    return value;
}
/// curl_global_init with the default flags (a macro of or-ed bits).
static inline void ccurl_global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }
/// The result of a finished transfer (a union member Swift reads awkwardly).
static inline CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }
#endif
