// libcurl for Swift. curl_easy_setopt/curl_easy_getinfo/curl_multi_setopt are variadic, which Swift
// cannot call: the typed wrappers below give each argument kind its own function.
#pragma once
#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

// MARK: curl_easy_setopt, one wrapper per argument kind

static inline CURLcode pw_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode pw_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// Strings: libcurl copies them.
static inline CURLcode pw_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

/// Slists, share handles, error buffers and callback user data.
static inline CURLcode pw_easy_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
static inline CURLcode pw_easy_setopt_write_callback(CURL *easy, CURLoption option,
                                                     curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode pw_easy_setopt_opensocket_callback(CURL *easy,
                                                          curl_opensocket_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

// MARK: curl_easy_getinfo

static inline CURLcode pw_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode pw_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

/// The returned string is owned by the easy handle and lives until curl_easy_cleanup.
static inline CURLcode pw_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl_easy_getinfo(easy, info, &text);
    *value = text;
    return code;
}

// MARK: curl_multi_setopt, curl_share_setopt

static inline CURLMcode pw_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLSHcode pw_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

/// CURLAUTH_* are macros with casts, which Swift does not import.
static const long pw_curlauth_basic = (long)CURLAUTH_BASIC;

// MARK: helpers for structures Swift sees poorly

/// CURLMsg.data is a union; this reads its CURLcode member for CURLMSG_DONE.
static inline CURLcode pw_msg_result(const CURLMsg *message) {
    return message->data.result;
}

/// Copies the IP address of a socket address curl is about to connect to into `out` (16 bytes)
/// and returns its length: 4 (IPv4), 16 (IPv6) or 0 (another family).
static inline int pw_sockaddr_ip(const struct curl_sockaddr *address, unsigned char out[16]) {
    if (address->family == AF_INET) {
        const struct sockaddr_in *in4 = (const struct sockaddr_in *)&address->addr;
        memcpy(out, &in4->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
        memcpy(out, &in6->sin6_addr, 16);
        return 16;
    }
    return 0;
}
