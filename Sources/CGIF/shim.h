// giflib for Swift.
#pragma once
#include <string.h>
#include <gif_lib.h>

/// Bytes in memory that giflib reads through `prewarm_gif_read`. It must outlive the GifFileType.
typedef struct {
    const GifByteType *data;
    size_t size;
    size_t offset;
} prewarm_gif_memory;

static int prewarm_gif_read(GifFileType *gif, GifByteType *out, int wanted) {
    prewarm_gif_memory *memory = (prewarm_gif_memory *)gif->UserData;
    size_t left = memory->size - memory->offset;
    size_t count = wanted < 0 ? 0 : (size_t)wanted;
    if (count > left) count = left;  // a short read makes giflib report D_GIF_ERR_READ_FAILED
    memcpy(out, memory->data + memory->offset, count);
    memory->offset += count;
    return (int)count;
}

/// Opens a GIF held in memory (DGifOpen with a read callback).
static inline GifFileType *prewarm_gif_open_memory(prewarm_gif_memory *memory, int *error) {
    return DGifOpen(memory, prewarm_gif_read, error);
}
