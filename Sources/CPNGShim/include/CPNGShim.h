// CPNGShim: libpng behind two calls that never longjmp into Swift.
//
// libpng reports errors by calling an error function that must not return; the
// classic API then longjmps to a setjmp point in the caller. Swift frames cannot be
// unwound that way (no destructors run, ARC state is lost), so every libpng call
// lives in CPNGShim.c, under a setjmp set up there, and Swift sees plain status
// codes. libpng's "simplified" png_image API also hides setjmp, but it opens files
// itself and reports only "open failed", losing errno and with it the hint we give
// the user ("does the directory exist?").
#ifndef PATTERNLOCK_CPNGSHIM_H
#define PATTERNLOCK_CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

/// What went wrong in a pl_png_ call.
typedef enum {
  /// Done.
  PL_PNG_OK = 0,
  /// A system call failed; `system_errno` says why (open, write, close).
  PL_PNG_SYSTEM = 1,
  /// libpng refused the data (not a PNG, corrupt, truncated); `message` says why.
  PL_PNG_FORMAT = 2,
  /// The image is larger than PL_PNG_MAXIMUM_SIDE or memory ran out.
  PL_PNG_TOO_LARGE = 3,
} pl_png_code;

/// The largest width or height read or written: four times a 4K panel's long side.
enum { PL_PNG_MAXIMUM_SIDE = 16384 };

/// The outcome of a pl_png_ call.
typedef struct {
  pl_png_code code;
  /// errno when code is PL_PNG_SYSTEM, else 0.
  int system_errno;
  /// A NUL-terminated reason: libpng's text (for system errors Swift words the errno).
  char message[160];
} pl_png_status;

/// Writes an 8-bit RGB image (3 bytes per pixel, rows packed, top row first) to
/// `path`, replacing the file. On failure a partly written regular file is removed.
void pl_png_write_rgb(const char *path, const uint8_t *rgb, uint32_t width, uint32_t height,
                      pl_png_status *status);

/// Fills `row` (width * 3 bytes) with row `y` of an image as packed 8-bit RGB.
/// Called with no libpng call on the stack, so it never sees libpng's longjmp.
typedef void (*pl_png_row_source)(void *context, uint32_t y, uint8_t *row);

/// Writes an 8-bit RGB image like pl_png_write_rgb, one row at a time: `source`
/// fills a one-row buffer for each row, top first, so a frame in another pixel
/// format is written without a packed copy of the whole image.
void pl_png_write_rows(const char *path, uint32_t width, uint32_t height, pl_png_row_source source,
                       void *context, pl_png_status *status);

/// Reads any PNG (gray, palette, RGB, with or without alpha, 1 to 16 bits,
/// interlaced or not) as 8-bit RGBA, rows packed, top row first. On success
/// `*pixels` is a malloc'd buffer of width*height*4 bytes that the caller frees with
/// pl_png_free; on failure it is NULL.
void pl_png_read_rgba(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                      pl_png_status *status);

/// Frees a buffer returned by pl_png_read_rgba (NULL is allowed).
void pl_png_free(uint8_t *pixels);

#endif
