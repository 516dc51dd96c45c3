#define _GNU_SOURCE
#include "CPNGShim.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_status(pl_png_status *status, pl_png_code code, int system_errno, const char *message) {
  status->code = code;
  status->system_errno = system_errno;
  snprintf(status->message, sizeof status->message, "%s", message);
}

// The message stays empty: Swift words the errno (SystemCalls' `Errno.text`).
static void set_errno_status(pl_png_status *status, int value) { set_status(status, PL_PNG_SYSTEM, value, ""); }

// libpng's error callback: record the reason, then jump back to the setjmp in the
// pl_png_ function that made this png_struct. Never returns.
static void on_error(png_structp png, png_const_charp message) {
  pl_png_status *status = png_get_error_ptr(png);
  // A write or read callback below may already have recorded errno: keep it.
  if (status->code == PL_PNG_OK) set_status(status, PL_PNG_FORMAT, 0, message);
  png_longjmp(png, 1);
}

// Warnings (unknown chunks, bad CRC in ancillary chunks) do not stop us.
static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void write_bytes(png_structp png, png_bytep bytes, size_t count) {
  FILE *file = png_get_io_ptr(png);
  if (fwrite(bytes, 1, count, file) != count) {
    set_errno_status(png_get_error_ptr(png), errno ? errno : EIO);
    png_error(png, "write failed");
  }
}

static void flush_bytes(png_structp png) { (void)png; }

static void read_bytes(png_structp png, png_bytep bytes, size_t count) {
  FILE *file = png_get_io_ptr(png);
  if (fread(bytes, 1, count, file) != count) {
    if (ferror(file)) {
      set_errno_status(png_get_error_ptr(png), errno ? errno : EIO);
      png_error(png, "read failed");
    }
    png_error(png, "file is truncated");
  }
}

// The row source of pl_png_write_rgb: rows already packed, copied out one by one.
typedef struct {
  const uint8_t *rgb;
  size_t row_bytes;
} packed_rows;

static void copy_packed_row(void *context, uint32_t y, uint8_t *row) {
  const packed_rows *rows = context;
  memcpy(row, rows->rgb + (size_t)y * rows->row_bytes, rows->row_bytes);
}

void pl_png_write_rgb(const char *path, const uint8_t *rgb, uint32_t width, uint32_t height,
                      pl_png_status *status) {
  packed_rows rows = {rgb, (size_t)width * 3};
  pl_png_write_rows(path, width, height, copy_packed_row, &rows, status);
}

void pl_png_write_rows(const char *path, uint32_t width, uint32_t height, pl_png_row_source source,
                       void *context, pl_png_status *status) {
  set_status(status, PL_PNG_OK, 0, "");
  if (width == 0 || height == 0 || width > PL_PNG_MAXIMUM_SIDE || height > PL_PNG_MAXIMUM_SIDE) {
    set_status(status, PL_PNG_TOO_LARGE, 0, "image size out of range");
    return;
  }
  uint8_t *row = malloc((size_t)width * 3);
  if (row == NULL) {
    set_status(status, PL_PNG_TOO_LARGE, 0, "out of memory");
    return;
  }
  FILE *file = fopen(path, "wbe");
  if (file == NULL) {
    set_errno_status(status, errno);
    free(row);
    return;
  }
  // Only a regular file is removed after a failure: the path may be a device
  // (/dev/full in tests, a pipe) that must survive.
  struct stat st;
  const int remove_on_failure = fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, status, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, NULL);
    fclose(file);
    free(row);
    if (remove_on_failure) unlink(path);
    set_status(status, PL_PNG_TOO_LARGE, 0, "out of memory");
    return;
  }
  // Nothing set before this point changes after it, so no local needs `volatile`.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fclose(file);
    free(row);
    if (remove_on_failure) unlink(path);
    return;
  }
  png_set_write_fn(png, file, write_bytes, flush_bytes);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; y++) {
    source(context, y, row);
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(row);
  // fclose flushes stdio's buffer: a full disk shows up here, not in fwrite.
  if (fclose(file) != 0) {
    set_errno_status(status, errno);
    if (remove_on_failure) unlink(path);
  }
}

void pl_png_read_rgba(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                      pl_png_status *status) {
  set_status(status, PL_PNG_OK, 0, "");
  *pixels = NULL;
  *width = 0;
  *height = 0;
  FILE *file = fopen(path, "rbe");
  if (file == NULL) {
    set_errno_status(status, errno);
    return;
  }
  png_byte signature[8];
  size_t got = fread(signature, 1, sizeof signature, file);
  if (got != sizeof signature || png_sig_cmp(signature, 0, sizeof signature) != 0) {
    if (ferror(file)) {
      set_errno_status(status, errno ? errno : EIO);
    } else {
      set_status(status, PL_PNG_FORMAT, 0, "not a PNG file");
    }
    fclose(file);
    return;
  }
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, status, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    fclose(file);
    set_status(status, PL_PNG_TOO_LARGE, 0, "out of memory");
    return;
  }
  // `buffer` changes after setjmp, so it is volatile: after a longjmp its value
  // would otherwise be indeterminate (C11 7.13.2.1).
  uint8_t *volatile buffer = NULL;
  if (setjmp(png_jmpbuf(png))) {
    free(buffer);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    return;
  }
  png_set_read_fn(png, file, read_bytes);
  png_set_sig_bytes(png, sizeof signature);
  // Refuse absurd sizes before libpng allocates rows for them.
  png_set_user_limits(png, PL_PNG_MAXIMUM_SIDE, PL_PNG_MAXIMUM_SIDE);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info);
  png_uint_32 h = png_get_image_height(png, info);
  int color_type = png_get_color_type(png, info);
  // Normalise everything to 8-bit RGBA.
  png_set_expand(png);  // palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha
  png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  png_set_filler(png, 0xff, PNG_FILLER_AFTER);  // no-op when alpha is already there
  int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)w * 4) {
    png_error(png, "unsupported pixel layout");
  }
  buffer = malloc((size_t)w * h * 4);
  if (buffer == NULL) {
    set_status(status, PL_PNG_TOO_LARGE, 0, "out of memory");
    png_error(png, "out of memory");
  }
  for (int pass = 0; pass < passes; pass++) {
    for (png_uint_32 y = 0; y < h; y++) {
      png_read_row(png, buffer + (size_t)y * w * 4, NULL);
    }
  }
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  fclose(file);
  *pixels = buffer;
  *width = w;
  *height = h;
}

void pl_png_free(uint8_t *pixels) { free(pixels); }
