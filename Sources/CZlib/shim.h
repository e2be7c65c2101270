#ifndef HEATMAPKIT_CZLIB_SHIM_H
#define HEATMAPKIT_CZLIB_SHIM_H
#include <zlib.h>

/// zlib's status codes and levels as constants Swift can see.
static const int czlib_ok = Z_OK;
static const int czlib_stream_end = Z_STREAM_END;
static const int czlib_buf_error = Z_BUF_ERROR;
static const int czlib_best_speed = Z_BEST_SPEED;
static const int czlib_default_compression = Z_DEFAULT_COMPRESSION;
#endif
