// cairo_scene: the cairo peer in patternlock's rendering benchmark.
//
// Draws the benchmark scene (Benchmarks/peers/peer_scene.h: layout, finger path,
// damage, command line) with cairo into an XRGB8888 image surface
// (CAIRO_FORMAT_RGB24) and an RGB565 one (CAIRO_FORMAT_RGB16_565), and prints the
// median time per frame, one JSON line per figure and size:
//
//   {"size":"800x480","figure":"cairo-full","median_us":412.3}
//
// Figures:
//   memset            memset of the whole frame: the floor any renderer pays.
//   cairo-full        the whole scene every frame.
//   cairo-incremental only the finger moved: the scene is redrawn inside a clip of
//                     the damaged rectangle (peer_damage), set with cairo_rectangle
//                     + cairo_clip.
//   cairo-full-rgb565 the whole scene every frame into an RGB565 surface.
//
// The scene as patternlock draws it: the polyline (one path, round caps and joins)
// under the rings, then the rings and the dots, those of the selected dots (1, 5, 9
// and 6) in the line's colour, the others in their own: two strokes and two fills.
//
// After timing, the last incremental frame is compared with a full render of the
// same finger position. cairo is not bit-exact here: it tessellates a stroke as a
// whole, so when the finger moves, anti-aliased edge pixels of the rest of the
// polyline shift by a few levels, and drawing under a clip takes another
// compositing path than drawing without one (both measured up to 11/255 per
// channel). So the check allows edge noise up to `max_edge_noise` per channel and
// fails (exit status 1) only on a larger difference: a stale piece of the old
// finger segment, i.e. a damage rectangle that misses changed pixels, which would
// make the incremental figure meaningless.
//
// Build: Benchmarks/cairo/run-cairo.sh.
#define _DEFAULT_SOURCE  // M_PI
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../peers/peer_scene.h"

// The largest per-channel difference between an incrementally repaired frame and
// a full render that is still cairo's edge noise rather than missed damage (the
// line against the background differs by over 100 levels).
static const int max_edge_noise = 32;

static void source(cairo_t *cr, unsigned rgb) {
  cairo_set_source_rgb(cr, (rgb >> 16) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static int is_selected(int dot) {
  for (int k = 0; k < 4; k++) {
    if (peer_selected[k] == dot + 1) return 1;
  }
  return 0;
}

// Circles of `radius` round the selected dots (`selected` 1) or the others, as one path.
static void circles(cairo_t *cr, const peer_layout *l, double radius, int selected) {
  for (int i = 0; i < 9; i++) {
    if (is_selected(i) != selected) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, l->x[i], l->y[i], radius, 0, 2 * M_PI);
  }
}

static void draw_scene(cairo_t *cr, const peer_layout *l, double finger_x, double finger_y) {
  source(cr, peer_background);
  cairo_paint(cr);

  cairo_set_line_width(cr, l->line_width);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_move_to(cr, l->x[peer_selected[0] - 1], l->y[peer_selected[0] - 1]);
  for (int i = 1; i < 4; i++) cairo_line_to(cr, l->x[peer_selected[i] - 1], l->y[peer_selected[i] - 1]);
  cairo_line_to(cr, finger_x, finger_y);
  source(cr, peer_line);
  cairo_stroke(cr);

  cairo_set_line_width(cr, l->ring_stroke);
  for (int selected = 0; selected < 2; selected++) {
    circles(cr, l, l->ring_radius, selected);
    source(cr, selected ? peer_line : peer_ring);
    cairo_stroke(cr);
  }
  for (int selected = 0; selected < 2; selected++) {
    circles(cr, l, l->dot_radius, selected);
    source(cr, selected ? peer_line : peer_dot);
    cairo_fill(cr);
  }
}

static cairo_surface_t *make_surface(const peer_layout *l, cairo_format_t format) {
  cairo_surface_t *surface = cairo_image_surface_create(format, l->width, l->height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    peer_fail("cannot create the image surface: ", cairo_status_to_string(cairo_surface_status(surface)));
  }
  return surface;
}

static void dump(cairo_surface_t *surface, const peer_run *run, const char *figure) {
  const char *path = peer_dump_path(run, figure);
  if (path == NULL) return;
  cairo_status_t status = cairo_surface_write_to_png(surface, path);
  if (status != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "patternlock: cairo bench: cannot write %s: %s (does the directory exist?)\n", path,
            cairo_status_to_string(status));
    exit(1);
  }
}

static void run_memset(const peer_run *run, double *samples) {
  cairo_surface_t *surface = make_surface(run->layout, CAIRO_FORMAT_RGB24);
  unsigned char *data = cairo_image_surface_get_data(surface);
  size_t bytes = (size_t)cairo_image_surface_get_stride(surface) * (size_t)run->layout->height;
  for (int i = -run->warmup; i < run->frames; i++) {
    cairo_surface_flush(surface);
    double t0 = peer_now_us();
    memset(data, i & 0xff, bytes);
    double t1 = peer_now_us();
    cairo_surface_mark_dirty(surface);
    if (i >= 0) samples[i] = t1 - t0;
  }
  peer_report(run->layout, "memset", samples, run->frames, NULL);
  cairo_surface_destroy(surface);
}

// The whole scene every frame, into a surface of `format`.
static void run_full(const peer_run *run, cairo_format_t format, const char *figure, double *samples) {
  const peer_layout *l = run->layout;
  cairo_surface_t *surface = make_surface(l, format);
  cairo_t *cr = cairo_create(surface);
  double fx, fy;
  for (int i = -run->warmup; i < run->frames; i++) {
    peer_finger_at(l, i + run->warmup, &fx, &fy);
    double t0 = peer_now_us();
    draw_scene(cr, l, fx, fy);
    cairo_surface_flush(surface);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  char name[64];
  snprintf(name, sizeof name, "cairo-%s", figure);
  peer_report(l, name, samples, run->frames, NULL);
  dump(surface, run, figure);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
}

static int run_incremental(const peer_run *run, double *samples) {
  const peer_layout *l = run->layout;
  cairo_surface_t *surface = make_surface(l, CAIRO_FORMAT_RGB24);
  cairo_t *cr = cairo_create(surface);
  unsigned char *data = cairo_image_surface_get_data(surface);
  double fx, fy;

  // Incremental: start from a complete frame, then repair only the damage.
  int frame = 0;
  peer_finger_at(l, frame, &fx, &fy);
  draw_scene(cr, l, fx, fy);
  for (int i = -run->warmup; i < run->frames; i++) {
    double old_x = fx, old_y = fy;
    frame++;
    peer_finger_at(l, frame, &fx, &fy);
    double t0 = peer_now_us();
    peer_box d = peer_damage(l, old_x, old_y, fx, fy);
    cairo_save(cr);
    cairo_rectangle(cr, d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0);
    cairo_clip(cr);
    draw_scene(cr, l, fx, fy);
    cairo_restore(cr);
    cairo_surface_flush(surface);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  peer_report(l, "cairo-incremental", samples, run->frames, NULL);
  dump(surface, run, "incremental");

  // The repaired frame must equal a full render of the same finger position.
  cairo_surface_t *check = make_surface(l, CAIRO_FORMAT_RGB24);
  cairo_t *check_cr = cairo_create(check);
  draw_scene(check_cr, l, fx, fy);
  cairo_surface_flush(check);
  int stride = cairo_image_surface_get_stride(surface);
  const unsigned char *full = cairo_image_surface_get_data(check);
  int status = 0, worst = 0, worst_x = 0, worst_y = 0;
  for (int y = 0; y < l->height; y++) {
    for (int x = 0; x < l->width; x++) {
      // RGB24 leaves the top byte of each pixel unspecified: compare B, G, R only.
      for (int c = 0; c < 3; c++) {
        int d = abs((int)data[y * stride + x * 4 + c] - (int)full[y * stride + x * 4 + c]);
        if (d > worst) {
          worst = d;
          worst_x = x;
          worst_y = y;
        }
      }
    }
  }
  if (worst > max_edge_noise) {
    fprintf(stderr,
            "patternlock: cairo bench: %dx%d incremental frame differs from the full frame by %d levels at "
            "(%d, %d) (the damage rectangle misses changed pixels)\n",
            l->width, l->height, worst, worst_x, worst_y);
    status = 1;
  }
  cairo_destroy(check_cr);
  cairo_surface_destroy(check);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  return status;
}

static int measure(const peer_run *run) {
  double *samples = malloc(sizeof *samples * (size_t)run->frames);
  if (samples == NULL) peer_fail("out of memory", NULL);
  int status = 0;
  if (peer_wanted(run, "memset")) run_memset(run, samples);
  if (peer_wanted(run, "full")) run_full(run, CAIRO_FORMAT_RGB24, "full", samples);
  if (peer_wanted(run, "incremental")) status = run_incremental(run, samples);
  if (peer_wanted(run, "full-rgb565")) run_full(run, CAIRO_FORMAT_RGB16_565, "full-rgb565", samples);
  free(samples);
  return status;
}

int main(int argc, char **argv) { return peer_main(argc, argv, "cairo", measure); }
