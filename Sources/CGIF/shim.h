// giflib for Swift.
#pragma once
#include <gif_lib.h>
