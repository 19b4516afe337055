// libwebp for Swift: decode, encode, demux (animated input) and mux (animated output).
#pragma once
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
