#ifndef HEATMAPKIT_CZLIB_SHIM_H
#define HEATMAPKIT_CZLIB_SHIM_H
#include <zlib.h>

/// zlib's status codes and levels as constants Swift can see.
static const int czlib_ok = Z_OK;
static const int czlib_stream_end = Z_STREAM_END;
static const int czlib_buf_error = Z_BUF_ERROR;
static const int czlib_data_error = Z_DATA_ERROR;
static const int czlib_mem_error = Z_MEM_ERROR;
static const int czlib_no_flush = Z_NO_FLUSH;
static const int czlib_best_speed = Z_BEST_SPEED;
static const int czlib_default_compression = Z_DEFAULT_COMPRESSION;

/// inflateInit2(strm, 15 + 16): inflate one gzip member (header and CRC32/size trailer
/// checked) with a 32 KiB window, as gzread does; the macro is invisible to Swift.
static inline int czlib_inflate_init_gzip(z_streamp strm) {
    return inflateInit2(strm, 15 + 16);
}
#endif
