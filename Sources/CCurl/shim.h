// libcurl for Swift. curl_easy_setopt/curl_easy_getinfo/curl_multi_setopt are variadic, which Swift
// cannot call: the typed wrappers below give each argument kind its own function.
#pragma once
#include <curl/curl.h>
