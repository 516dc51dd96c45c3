// lvgl_scene: the LVGL peer in patternlock's rendering benchmark.
//
// Draws the benchmark scene (Benchmarks/peers/peer_scene.h) with LVGL 9.5's
// software renderer into a frame buffer this program owns: an lv_display with no
// driver, in LV_DISPLAY_RENDER_MODE_DIRECT (LVGL renders the invalidated areas
// straight into the whole-screen buffer, as on a DRM dumb buffer or fbdev) and a
// flush callback that only counts the pixels LVGL redrew. One build draws both
// LV_COLOR_FORMAT_XRGB8888 and LV_COLOR_FORMAT_RGB565 (set per display).
//
// The scene as an LVGL developer builds it, children of the screen in drawing
// order (later ones on top):
//   - the screen's own background (bg_color, opaque);
//   - the trail: one lv_line through dots 1, 5, 9 and 6, line_width from the
//     layout, line_rounded (round ends on every segment, which also rounds the joins);
//   - the finger segment: a second lv_line from dot 6 to the finger, the only object
//     that changes. It is placed at the top-left corner of its two points, so its
//     area is the segment's bounding box and not the screen's;
//   - nine rings: lv_obj with radius LV_RADIUS_CIRCLE, a border of ring_stroke
//     and no background, the ring's radius at the middle of the border;
//   - nine dots: lv_obj with radius LV_RADIUS_CIRCLE and an opaque background.
// Rings and dots of the selected dots take the line's colour, as patternlock's do.
//
// Figures:
//   lvgl-full         the whole screen invalidated every frame (lv_obj_invalidate of
//                     the screen), the finger moved, lv_refr_now.
//   lvgl-incremental  only the finger moved (lv_line_set_points and lv_obj_set_pos
//                     on the finger segment): LVGL invalidates the segment's old and
//                     new areas itself and redraws what it decides; the figure line
//                     adds "redrawn_pixels_per_frame", the mean area LVGL flushed.
//   lvgl-full-rgb565  lvgl-full on an RGB565 display.
//
// After timing, the last incremental frame is compared with a full redraw of the
// same finger position (exit status 1 on a difference above anti-aliasing noise),
// so LVGL's invalidation is shown to cover everything that changed.
//
// Build: Benchmarks/lvgl/run-lvgl.sh.
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../peers/peer_scene.h"
#include "lvgl.h"

// The largest per-channel difference between the repaired and the full frame
// that is still anti-aliasing noise (a stale segment differs by over 100 levels).
static const int max_edge_noise = 32;

static long long redrawn_pixels;

static void flush(lv_display_t *display, const lv_area_t *area, uint8_t *pixels) {
  (void)pixels;
  redrawn_pixels += (long long)lv_area_get_width(area) * lv_area_get_height(area);
  lv_display_flush_ready(display);
}

static uint32_t ticks;
static uint32_t tick(void) { return ticks; }

typedef struct {
  lv_display_t *display;
  uint8_t *pixels;
  size_t bytes;
  int bytes_per_pixel;
  lv_obj_t *finger;
  lv_point_precise_t finger_points[2];
  lv_point_precise_t trail_points[4];
} scene;

static lv_obj_t *plain(lv_obj_t *parent, lv_obj_t *object) {
  (void)parent;
  lv_obj_remove_style_all(object);
  lv_obj_remove_flag(object, LV_OBJ_FLAG_CLICKABLE | LV_OBJ_FLAG_SCROLLABLE);
  return object;
}

static lv_obj_t *line(lv_obj_t *screen, const peer_layout *l) {
  lv_obj_t *object = plain(screen, lv_line_create(screen));
  lv_obj_set_style_line_width(object, (int32_t)lround(l->line_width), 0);
  lv_obj_set_style_line_color(object, lv_color_hex(peer_line), 0);
  lv_obj_set_style_line_rounded(object, true, 0);
  return object;
}

static int is_selected(int dot) {
  for (int k = 0; k < 4; k++) {
    if (peer_selected[k] == dot + 1) return 1;
  }
  return 0;
}

// A circle of `radius` round dot `i`: its object's whole-pixel box.
static void place_circle(lv_obj_t *object, const peer_layout *l, int i, double radius) {
  int32_t x0 = (int32_t)lround(l->x[i] - radius), y0 = (int32_t)lround(l->y[i] - radius);
  int32_t side = (int32_t)lround(2 * radius);
  lv_obj_set_pos(object, x0, y0);
  lv_obj_set_size(object, side, side);
  lv_obj_set_style_radius(object, LV_RADIUS_CIRCLE, 0);
}

// Moves the finger segment: the object at the points' top-left, points relative to it.
static void move_finger(scene *s, const peer_layout *l, double fx, double fy) {
  const int last = peer_selected[3] - 1;
  double x0 = floor(fmin(l->x[last], fx)), y0 = floor(fmin(l->y[last], fy));
  s->finger_points[0] = (lv_point_precise_t){(lv_value_precise_t)(l->x[last] - x0), (lv_value_precise_t)(l->y[last] - y0)};
  s->finger_points[1] = (lv_point_precise_t){(lv_value_precise_t)(fx - x0), (lv_value_precise_t)(fy - y0)};
  lv_obj_set_pos(s->finger, (int32_t)x0, (int32_t)y0);
  lv_line_set_points(s->finger, s->finger_points, 2);
}

static void make_scene(scene *s, const peer_layout *l, lv_color_format_t format) {
  s->display = lv_display_create(l->width, l->height);
  lv_display_set_color_format(s->display, format);
  s->bytes_per_pixel = lv_color_format_get_size(format);
  uint32_t stride = lv_draw_buf_width_to_stride((uint32_t)l->width, format);
  s->bytes = (size_t)stride * (size_t)l->height;
  s->pixels = aligned_alloc(64, (s->bytes + 63) / 64 * 64);
  if (s->pixels == NULL) peer_fail("out of memory", NULL);
  memset(s->pixels, 0, s->bytes);
  lv_display_set_buffers(s->display, s->pixels, NULL, (uint32_t)s->bytes, LV_DISPLAY_RENDER_MODE_DIRECT);
  lv_display_set_flush_cb(s->display, flush);
  lv_display_set_default(s->display);

  lv_obj_t *screen = lv_display_get_screen_active(s->display);
  lv_obj_remove_style_all(screen);
  lv_obj_remove_flag(screen, LV_OBJ_FLAG_SCROLLABLE);
  lv_obj_set_style_bg_color(screen, lv_color_hex(peer_background), 0);
  lv_obj_set_style_bg_opa(screen, LV_OPA_COVER, 0);

  // The trail, placed at its points' top-left so its area is its bounding box.
  lv_obj_t *trail = line(screen, l);
  double x0 = l->x[peer_selected[0] - 1], y0 = l->y[peer_selected[0] - 1];
  for (int k = 1; k < 4; k++) {
    x0 = fmin(x0, l->x[peer_selected[k] - 1]);
    y0 = fmin(y0, l->y[peer_selected[k] - 1]);
  }
  x0 = floor(x0);
  y0 = floor(y0);
  for (int k = 0; k < 4; k++) {
    int i = peer_selected[k] - 1;
    s->trail_points[k] = (lv_point_precise_t){(lv_value_precise_t)(l->x[i] - x0), (lv_value_precise_t)(l->y[i] - y0)};
  }
  lv_obj_set_pos(trail, (int32_t)x0, (int32_t)y0);
  lv_line_set_points(trail, s->trail_points, 4);

  s->finger = line(screen, l);
  double fx, fy;
  peer_finger_at(l, 0, &fx, &fy);
  move_finger(s, l, fx, fy);

  for (int i = 0; i < 9; i++) {
    lv_obj_t *ring = plain(screen, lv_obj_create(screen));
    place_circle(ring, l, i, l->ring_radius + l->ring_stroke / 2);
    lv_obj_set_style_border_width(ring, (int32_t)lround(l->ring_stroke), 0);
    lv_obj_set_style_border_color(ring, lv_color_hex(is_selected(i) ? peer_line : peer_ring), 0);
    lv_obj_set_style_border_opa(ring, LV_OPA_COVER, 0);
    lv_obj_set_style_bg_opa(ring, LV_OPA_TRANSP, 0);
  }
  for (int i = 0; i < 9; i++) {
    lv_obj_t *dot = plain(screen, lv_obj_create(screen));
    place_circle(dot, l, i, l->dot_radius);
    lv_obj_set_style_bg_color(dot, lv_color_hex(is_selected(i) ? peer_line : peer_dot), 0);
    lv_obj_set_style_bg_opa(dot, LV_OPA_COVER, 0);
  }
  lv_refr_now(s->display);
}

static void free_scene(scene *s) {
  lv_display_delete(s->display);
  free(s->pixels);
}

// A full redraw: the whole screen invalidated, then rendered.
static void redraw_all(scene *s) {
  lv_obj_invalidate(lv_display_get_screen_active(s->display));
  lv_refr_now(s->display);
}

// 8-bit RGB of pixel `p` of `s`'s buffer.
static void pixel_rgb(const scene *s, size_t p, unsigned char rgb[3]) {
  if (s->bytes_per_pixel == 2) {
    unsigned v = s->pixels[2 * p] | (unsigned)s->pixels[2 * p + 1] << 8;
    unsigned r = v >> 11, g = (v >> 5) & 63, b = v & 31;
    rgb[0] = (unsigned char)(r << 3 | r >> 2);
    rgb[1] = (unsigned char)(g << 2 | g >> 4);
    rgb[2] = (unsigned char)(b << 3 | b >> 2);
  } else {
    rgb[0] = s->pixels[4 * p + 2];
    rgb[1] = s->pixels[4 * p + 1];
    rgb[2] = s->pixels[4 * p];
  }
}

static void dump(const scene *s, const peer_run *run, const char *figure) {
  const char *path = peer_dump_path(run, figure);
  if (path == NULL) return;
  size_t count = (size_t)run->layout->width * (size_t)run->layout->height;
  unsigned char *rgb = malloc(count * 3);
  if (rgb == NULL) peer_fail("out of memory", NULL);
  for (size_t p = 0; p < count; p++) pixel_rgb(s, p, rgb + 3 * p);
  png_image image = {.version = PNG_IMAGE_VERSION, .width = (png_uint_32)run->layout->width,
                     .height = (png_uint_32)run->layout->height, .format = PNG_FORMAT_RGB};
  if (!png_image_write_to_file(&image, path, 0, rgb, 0, NULL)) {
    fprintf(stderr, "patternlock: lvgl bench: cannot write %s: %s (does the directory exist?)\n", path, image.message);
    exit(1);
  }
  free(rgb);
}

static void run_memset(const peer_run *run, double *samples) {
  size_t bytes = (size_t)run->layout->width * (size_t)run->layout->height * 4;
  unsigned char *data = malloc(bytes);
  if (data == NULL) peer_fail("out of memory", NULL);
  for (int i = -run->warmup; i < run->frames; i++) {
    double t0 = peer_now_us();
    memset(data, i & 0xff, bytes);
    __asm__ volatile("" : : "r"(data) : "memory");
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  peer_report(run->layout, "memset", samples, run->frames, NULL);
  free(data);
}

static void run_full(const peer_run *run, lv_color_format_t format, const char *figure, double *samples) {
  const peer_layout *l = run->layout;
  scene s;
  make_scene(&s, l, format);
  double fx, fy;
  for (int i = -run->warmup; i < run->frames; i++) {
    peer_finger_at(l, i + run->warmup, &fx, &fy);
    double t0 = peer_now_us();
    move_finger(&s, l, fx, fy);
    redraw_all(&s);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  char name[64];
  snprintf(name, sizeof name, "lvgl-%s", figure);
  peer_report(l, name, samples, run->frames, NULL);
  dump(&s, run, figure);
  free_scene(&s);
}

static int run_incremental(const peer_run *run, double *samples) {
  const peer_layout *l = run->layout;
  scene s;
  make_scene(&s, l, LV_COLOR_FORMAT_XRGB8888);
  double fx, fy;
  int frame = 0;
  redrawn_pixels = 0;
  long long redrawn_timed = 0;
  for (int i = -run->warmup; i < run->frames; i++) {
    frame++;
    peer_finger_at(l, frame, &fx, &fy);
    if (i == 0) redrawn_timed = redrawn_pixels;
    double t0 = peer_now_us();
    move_finger(&s, l, fx, fy);
    lv_refr_now(s.display);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  char extra[96];
  snprintf(extra, sizeof extra, ",\"redrawn_pixels_per_frame\":%.0f",
           (double)(redrawn_pixels - redrawn_timed) / run->frames);
  peer_report(l, "lvgl-incremental", samples, run->frames, extra);
  dump(&s, run, "incremental");

  // The repaired frame must equal a full redraw of the same finger position.
  unsigned char *repaired = malloc(s.bytes);
  if (repaired == NULL) peer_fail("out of memory", NULL);
  memcpy(repaired, s.pixels, s.bytes);
  redraw_all(&s);
  int worst = 0;
  size_t worst_at = 0;
  for (size_t b = 0; b < s.bytes; b++) {
    if (b % 4 == 3) continue;  // XRGB8888's X byte
    int d = abs((int)repaired[b] - (int)s.pixels[b]);
    if (d > worst) {
      worst = d;
      worst_at = b / 4;
    }
  }
  free(repaired);
  free_scene(&s);
  if (worst > max_edge_noise) {
    fprintf(stderr,
            "patternlock: lvgl bench: %dx%d incremental frame differs from a full redraw by %d levels at (%zu, %zu) "
            "(LVGL's invalidation misses changed pixels)\n",
            l->width, l->height, worst, worst_at % (size_t)l->width, worst_at / (size_t)l->width);
    return 1;
  }
  return 0;
}

static int measure(const peer_run *run) {
  double *samples = malloc(sizeof *samples * (size_t)run->frames);
  if (samples == NULL) peer_fail("out of memory", NULL);
  int status = 0;
  if (peer_wanted(run, "memset")) run_memset(run, samples);
  if (peer_wanted(run, "full")) run_full(run, LV_COLOR_FORMAT_XRGB8888, "full", samples);
  if (peer_wanted(run, "incremental")) status = run_incremental(run, samples);
  if (peer_wanted(run, "full-rgb565")) run_full(run, LV_COLOR_FORMAT_RGB565, "full-rgb565", samples);
  free(samples);
  return status;
}

int main(int argc, char **argv) {
  lv_init();
  lv_tick_set_cb(tick);
  return peer_main(argc, argv, "lvgl", measure);
}
