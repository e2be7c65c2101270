#ifndef HEATMAPKIT_CWEBP_SHIM_H
#define HEATMAPKIT_CWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/decode.h>
#endif
