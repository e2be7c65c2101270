#ifndef HEATMAPKIT_CPNG_SHIM_H
#define HEATMAPKIT_CPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// libpng, for the tests only: the reference the Swift PNG decoder is checked against.

/// libpng's simplified-API macros, which Swift cannot import, as constants.
static const unsigned int cpng_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int cpng_image_version = PNG_IMAGE_VERSION;
static const unsigned int cpng_format_rgba_colormap = PNG_FORMAT_RGBA_COLORMAP;

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} cpng_memory;

static void cpng_read_memory(png_structp png, png_bytep out, size_t count) {
    cpng_memory *memory = (cpng_memory *)png_get_io_ptr(png);
    if (count > memory->size - memory->offset) png_error(png, "the data ends early");
    memcpy(out, memory->data + memory->offset, count);
    memory->offset += count;
}

static void cpng_quiet(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// Decodes `data` to 8-bit RGBA in `out` (`capacity` bytes) with libpng's own transforms and
/// no gamma handling: palette, tRNS and low-bit grey expanded, 16-bit samples scaled with
/// png_set_scale_16 (round(v × 255 / 65535)), grey made RGB, opaque alpha added, Adam7
/// passes combined. Returns 0 and the size, or nonzero when libpng refuses the data.
static inline int cpng_decode_rgba8(
    const unsigned char *data, size_t size, unsigned char *out, size_t capacity, unsigned *width, unsigned *height) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, cpng_quiet);
    if (png == NULL) return 1;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return 1;
    }
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return 2;
    }
    cpng_memory memory = {data, size, 0};
    png_set_read_fn(png, &memory, cpng_read_memory);
    png_read_info(png, info);
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4 || (size_t)w * h * 4 > capacity) {
        png_destroy_read_struct(&png, &info, NULL);
        return 3;
    }
    rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
    if (rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *width = w;
    *height = h;
    return 0;
}
#endif
