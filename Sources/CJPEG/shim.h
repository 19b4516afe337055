// libjpeg-turbo for Swift. jpeglib.h needs stdio.h (FILE) and stddef.h (size_t) first.
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
