#ifndef HEATMAPKIT_CPNG_SHIM_H
#define HEATMAPKIT_CPNG_SHIM_H
#include <png.h>

/// libpng's simplified-API macros, which Swift cannot import, as constants.
static const unsigned int cpng_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int cpng_image_version = PNG_IMAGE_VERSION;
static const unsigned int cpng_format_rgba_colormap = PNG_FORMAT_RGBA_COLORMAP;
#endif
