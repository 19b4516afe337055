// libpng for Swift.
#pragma once
#include <png.h>
