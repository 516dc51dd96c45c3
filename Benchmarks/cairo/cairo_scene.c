// cairo_scene: the cairo reference for patternlock's rendering benchmark.
//
// Draws the lock-screen benchmark scene with cairo into an XRGB8888 image surface
// (CAIRO_FORMAT_RGB24), and into an RGB565 one (CAIRO_FORMAT_RGB16_565), and prints
// the median time per frame, one JSON line per figure and size:
//
//   {"size":"800x480","figure":"cairo-full","median_us":412.3}
//
// Figures:
//   memset            memset of the whole frame: the floor any renderer pays.
//   cairo-full        the whole scene every frame.
//   cairo-incremental only the finger moved: the scene is redrawn inside a clip of
//                     the damaged area (the bounding boxes of the old and the new
//                     finger segment, widened by half the line width and a pixel for
//                     anti-aliasing, snapped outwards to whole pixels), set with
//                     cairo_rectangle + cairo_clip.
//   cairo-full-rgb565 the whole scene every frame into an RGB565 surface.
//
// `--only FIGURE` measures that one figure and nothing else, and then accepts
// fewer than 300 frames: scripts/bench counts instructions per frame that way
// (a run of N+1 frames under callgrind less a run of 1 frame).
//
// The scene: a solid background; a 3x3 grid of rings (radius 36 px, stroke 3 px)
// with filled dots (radius 12 px) at the centres `patternlock layout --size WxH`
// gives; a 10 px polyline with round caps and joins through dots 1, 5, 9 and 6 and
// on to the finger (one path), drawn under the rings and dots. The finger circles dot 6 at
// three quarters of the dot pitch, 1/120 of a turn per frame. Radii and widths are
// these fixed values at every size unless a `--layout` file gives its own
// (`dot_radius`, `ring_radius`, `ring_stroke`, `line_width`): scripts/bench passes
// patternlock's layout, whose radii scale with the cell, so both sides draw the same
// shapes at every size (at 800x480 they are exactly the fixed values).
//
// Dot centres: by default this program applies patternlock's layout rule for a 3x3
// grid with no DPI (see Sources/PatternCore/GridLayout.swift); `--layout FILE` reads
// the JSON that `patternlock layout` prints instead, for the size it names.
//
// After timing, the last incremental frame is compared with a full render of the
// same finger position. cairo is not bit-exact here: it tessellates a stroke as a
// whole, so when the finger moves, anti-aliased edge pixels of the rest of the
// polyline shift by a few levels, and drawing under a clip takes another
// compositing path than drawing without one (both measured up to 11/255 per
// channel). So the check allows edge noise up to `max_edge_noise` per channel and
// fails (exit status 1) only on a larger difference: a stale piece of the old
// finger segment, i.e. a damage rectangle that misses changed pixels, which would
// make the incremental figure meaningless. patternlock's own renderer, being
// integer, is held to exact equality in its tests instead.
//
// Build: cc -O2 -o cairo_scene cairo_scene.c $(pkg-config --cflags --libs cairo) -lm
// (Benchmarks/cairo/run-cairo.sh does this).
#define _DEFAULT_SOURCE  // M_PI, clock_gettime
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_SIZES = 8, MAX_LAYOUTS = 8 };

// The default radii and widths, in pixels (patternlock's layout at 800x480).
static const double default_ring_radius = 36, default_ring_stroke = 3, default_dot_radius = 12,
                    default_line_width = 10;
static const int selected[4] = {1, 5, 9, 6};  // dot numbers, row-major from 1
// The largest per-channel difference between an incrementally repaired frame and
// a full render that is still cairo's edge noise rather than missed damage (the
// line against the background differs by over 100 levels).
static const int max_edge_noise = 32;

typedef struct {
  int width, height;
  double x[9], y[9];
  double ring_radius, ring_stroke, dot_radius, line_width;
} layout;

typedef struct {
  double x0, y0, x1, y1;
} box;

static void fail(const char *message, const char *detail) {
  fprintf(stderr, "patternlock: cairo bench: %s%s\n", message, detail ? detail : "");
  exit(2);
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

// patternlock's rule for a 3x3 grid without DPI (GridLayout.swift, rules 1 to 4).
static layout rule_layout(int width, int height) {
  layout l = {.width = width,
              .height = height,
              .ring_radius = default_ring_radius,
              .ring_stroke = default_ring_stroke,
              .dot_radius = default_dot_radius,
              .line_width = default_line_width};
  const int n = 3;
  int short_side = width < height ? width : height;
  int font = short_side / 24 < 12 ? 12 : short_side / 24;
  int band = font * 2;
  int beside = width - height >= short_side / 3;
  int side;
  if (beside) {
    side = width - short_side / 3 < height ? width - short_side / 3 : height;
  } else {
    side = height - band < width ? height - band : width;
  }
  double cell = 2.0 * side / (3 * n + 1);
  double margin = (side - n * cell) / (n + 1);
  int gx, gy;
  if (beside) {
    int text = width - side < side ? width - side : side;
    int left = (width - text - side) / 2;
    gx = left + text;
    gy = (height - side) / 2;
  } else {
    int top = (height - band - side) / 2;
    gx = (width - side) / 2;
    gy = top + band;
  }
  for (int row = 0; row < n; row++) {
    for (int column = 0; column < n; column++) {
      l.x[row * n + column] = gx + margin * (column + 1) + cell * column + cell / 2;
      l.y[row * n + column] = gy + margin * (row + 1) + cell * row + cell / 2;
    }
  }
  return l;
}

// A number after `"key":` in `text`, or `fallback` when the key is absent.
static double number_field(const char *text, const char *key, double fallback) {
  const char *p = strstr(text, key);
  return p ? strtod(p + strlen(key), NULL) : fallback;
}

// Reads `patternlock layout` JSON: the panel size, nine dot centres and, when
// present, the radii and widths.
static layout read_layout(const char *path) {
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    fprintf(stderr, "patternlock: cairo bench: cannot read layout %s: %s (write it with 'patternlock layout --size WxH > %s')\n",
            path, strerror(errno), path);
    exit(2);
  }
  static char text[65536];
  size_t count = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[count] = 0;
  layout l = {0};
  const char *panel = strstr(text, "\"panel\":{\"width\":");
  if (panel == NULL || sscanf(panel, "\"panel\":{\"width\":%d,\"height\":%d", &l.width, &l.height) != 2) {
    fail("layout file has no panel size (is it 'patternlock layout' output?): ", path);
  }
  const char *p = strstr(text, "\"dots\":[");
  for (int i = 0; i < 9; i++) {
    p = p ? strstr(p, "\"x\":") : NULL;
    if (p == NULL) fail("layout file has fewer than 9 dots (use --grid 3): ", path);
    l.x[i] = strtod(p + 4, NULL);
    p = strstr(p, "\"y\":");
    if (p == NULL) fail("layout file has a dot without y: ", path);
    l.y[i] = strtod(p + 4, NULL);
  }
  l.ring_radius = number_field(text, "\"ring_radius\":", default_ring_radius);
  l.ring_stroke = number_field(text, "\"ring_stroke\":", default_ring_stroke);
  l.dot_radius = number_field(text, "\"dot_radius\":", default_dot_radius);
  l.line_width = number_field(text, "\"line_width\":", default_line_width);
  return l;
}

static void finger_at(const layout *l, int frame, double *x, double *y) {
  const int last = selected[3] - 1;
  double pitch = l->x[1] - l->x[0];
  double angle = frame * (2 * M_PI / 120);
  *x = l->x[last] + 0.75 * pitch * cos(angle);
  *y = l->y[last] + 0.75 * pitch * sin(angle);
}

static void draw_scene(cairo_t *cr, const layout *l, double finger_x, double finger_y) {
  cairo_set_source_rgb(cr, 0x10 / 255.0, 0x14 / 255.0, 0x18 / 255.0);
  cairo_paint(cr);

  cairo_set_line_width(cr, l->line_width);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_move_to(cr, l->x[selected[0] - 1], l->y[selected[0] - 1]);
  for (int i = 1; i < 4; i++) cairo_line_to(cr, l->x[selected[i] - 1], l->y[selected[i] - 1]);
  cairo_line_to(cr, finger_x, finger_y);
  cairo_set_source_rgb(cr, 0x4f / 255.0, 0xc3 / 255.0, 0xf7 / 255.0);
  cairo_stroke(cr);

  cairo_set_line_width(cr, l->ring_stroke);
  for (int i = 0; i < 9; i++) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, l->x[i], l->y[i], l->ring_radius, 0, 2 * M_PI);
  }
  cairo_set_source_rgb(cr, 0x5a / 255.0, 0x64 / 255.0, 0x70 / 255.0);
  cairo_stroke(cr);

  for (int i = 0; i < 9; i++) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, l->x[i], l->y[i], l->dot_radius, 0, 2 * M_PI);
  }
  cairo_set_source_rgb(cr, 0xe0 / 255.0, 0xe0 / 255.0, 0xe0 / 255.0);
  cairo_fill(cr);
}

// The pixels the last segment (last selected dot to the finger) can touch.
static box segment_box(const layout *l, double finger_x, double finger_y) {
  const int last = selected[3] - 1;
  double pad = l->line_width / 2 + 1;
  box b = {
      fmin(l->x[last], finger_x) - pad, fmin(l->y[last], finger_y) - pad,
      fmax(l->x[last], finger_x) + pad, fmax(l->y[last], finger_y) + pad,
  };
  return b;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
  qsort(values, (size_t)count, sizeof *values, compare_doubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static void report(const layout *l, const char *figure, double *samples, int frames) {
  printf("{\"size\":\"%dx%d\",\"figure\":\"%s\",\"median_us\":%.1f}\n", l->width, l->height, figure,
         median(samples, frames));
  fflush(stdout);
}

static cairo_surface_t *make_surface(const layout *l, cairo_format_t format) {
  cairo_surface_t *surface = cairo_image_surface_create(format, l->width, l->height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    fail("cannot create the image surface: ", cairo_status_to_string(cairo_surface_status(surface)));
  }
  return surface;
}

static void dump(cairo_surface_t *surface, const char *directory, const layout *l, const char *figure) {
  if (directory == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/cairo-%dx%d-%s.png", directory, l->width, l->height, figure);
  cairo_status_t status = cairo_surface_write_to_png(surface, path);
  if (status != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "patternlock: cairo bench: cannot write %s: %s (does the directory %s exist?)\n", path,
            cairo_status_to_string(status), directory);
    exit(1);
  }
}

static int wanted(const char *only, const char *figure) { return only == NULL || strcmp(only, figure) == 0; }

static void run_memset(const layout *l, int frames, int warmup, double *samples) {
  cairo_surface_t *surface = make_surface(l, CAIRO_FORMAT_RGB24);
  unsigned char *data = cairo_image_surface_get_data(surface);
  size_t bytes = (size_t)cairo_image_surface_get_stride(surface) * (size_t)l->height;
  for (int i = -warmup; i < frames; i++) {
    cairo_surface_flush(surface);
    double t0 = now_us();
    memset(data, i & 0xff, bytes);
    double t1 = now_us();
    cairo_surface_mark_dirty(surface);
    if (i >= 0) samples[i] = t1 - t0;
  }
  report(l, "memset", samples, frames);
  cairo_surface_destroy(surface);
}

// The whole scene every frame, into a surface of `format`.
static void run_full(const layout *l, cairo_format_t format, const char *figure, int frames, int warmup,
                     double *samples, const char *dump_directory) {
  cairo_surface_t *surface = make_surface(l, format);
  cairo_t *cr = cairo_create(surface);
  double fx, fy;
  for (int i = -warmup; i < frames; i++) {
    finger_at(l, i + warmup, &fx, &fy);
    double t0 = now_us();
    draw_scene(cr, l, fx, fy);
    cairo_surface_flush(surface);
    double t1 = now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  report(l, figure, samples, frames);
  dump(surface, dump_directory, l, figure + strlen("cairo-"));
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
}

static int run_incremental(const layout *l, int frames, int warmup, double *samples, const char *dump_directory) {
  cairo_surface_t *surface = make_surface(l, CAIRO_FORMAT_RGB24);
  cairo_t *cr = cairo_create(surface);
  unsigned char *data = cairo_image_surface_get_data(surface);
  double fx, fy;

  // Incremental: start from a complete frame, then repair only the damage.
  int frame = 0;
  finger_at(l, frame, &fx, &fy);
  draw_scene(cr, l, fx, fy);
  for (int i = -warmup; i < frames; i++) {
    double old_x = fx, old_y = fy;
    frame++;
    finger_at(l, frame, &fx, &fy);
    double t0 = now_us();
    box a = segment_box(l, old_x, old_y), b = segment_box(l, fx, fy);
    double x0 = floor(fmin(a.x0, b.x0)), y0 = floor(fmin(a.y0, b.y0));
    double x1 = ceil(fmax(a.x1, b.x1)), y1 = ceil(fmax(a.y1, b.y1));
    cairo_save(cr);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_clip(cr);
    draw_scene(cr, l, fx, fy);
    cairo_restore(cr);
    cairo_surface_flush(surface);
    double t1 = now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  report(l, "cairo-incremental", samples, frames);
  dump(surface, dump_directory, l, "incremental");

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

// The figures for one size (only `only` when it is not NULL).
static int run(const layout *l, int frames, int warmup, const char *dump_directory, const char *only) {
  double *samples = malloc(sizeof *samples * (size_t)frames);
  if (samples == NULL) fail("out of memory", NULL);
  int status = 0;
  if (wanted(only, "memset")) run_memset(l, frames, warmup, samples);
  if (wanted(only, "cairo-full")) run_full(l, CAIRO_FORMAT_RGB24, "cairo-full", frames, warmup, samples, dump_directory);
  if (wanted(only, "cairo-incremental")) status = run_incremental(l, frames, warmup, samples, dump_directory);
  if (wanted(only, "cairo-full-rgb565")) {
    run_full(l, CAIRO_FORMAT_RGB16_565, "cairo-full-rgb565", frames, warmup, samples, dump_directory);
  }
  free(samples);
  return status;
}

static void usage(void) {
  fputs("usage: cairo_scene [--size WxH]... [--layout FILE]... [--frames N] [--warmup N] [--dump DIR]\n"
        "                   [--only FIGURE]\n"
        "  --size WxH     a size to measure (default 800x480, 1280x720 and 1920x1080)\n"
        "  --layout FILE  dot centres from 'patternlock layout --size WxH' JSON, for its size\n"
        "  --frames N     timed frames per figure, at least 300 (default 300; at least 1 with --only)\n"
        "  --warmup N     untimed frames first (default 30)\n"
        "  --dump DIR     write DIR/cairo-WxH-full.png, -incremental.png and -full-rgb565.png\n"
        "  --only FIGURE  measure only memset, cairo-full, cairo-incremental or cairo-full-rgb565\n",
        stdout);
}

static int parse_count(const char *option, const char *value, int minimum) {
  char *end = NULL;
  long n = value ? strtol(value, &end, 10) : -1;
  if (value == NULL || *end != 0 || n < minimum || n > 1000000) {
    fprintf(stderr, "patternlock: cairo bench: %s needs a whole number from %d to 1000000, not '%s'\n", option,
            minimum, value ? value : "");
    exit(2);
  }
  return (int)n;
}

int main(int argc, char **argv) {
  layout sizes[MAX_SIZES];
  int size_count = 0;
  layout layouts[MAX_LAYOUTS];
  int layout_count = 0;
  int frames = 300, warmup = 30;
  const char *dump_directory = NULL;
  const char *only = NULL;
  const char *frames_text = NULL;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage();
      return 0;
    } else if (strcmp(argv[i], "--size") == 0) {
      int w = 0, h = 0;
      char extra;
      if (value == NULL || sscanf(value, "%dx%d%c", &w, &h, &extra) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192) {
        fail("--size needs WxH with each side 16 to 8192, not ", value ? value : "nothing");
      }
      if (size_count == MAX_SIZES) fail("too many --size options (at most 8)", NULL);
      sizes[size_count++] = (layout){.width = w, .height = h};
      i++;
    } else if (strcmp(argv[i], "--layout") == 0) {
      if (value == NULL) fail("--layout needs a file", NULL);
      if (layout_count == MAX_LAYOUTS) fail("too many --layout options (at most 8)", NULL);
      layouts[layout_count++] = read_layout(value);
      i++;
    } else if (strcmp(argv[i], "--frames") == 0) {
      if (value == NULL) fail("--frames needs a number", NULL);
      frames_text = value;
      i++;
    } else if (strcmp(argv[i], "--only") == 0) {
      if (value == NULL) fail("--only needs a figure", NULL);
      if (!wanted(value, "memset") && !wanted(value, "cairo-full") && !wanted(value, "cairo-incremental") &&
          !wanted(value, "cairo-full-rgb565")) {
        fail("--only takes memset, cairo-full, cairo-incremental or cairo-full-rgb565, not ", value);
      }
      only = value;
      i++;
    } else if (strcmp(argv[i], "--warmup") == 0) {
      warmup = parse_count("--warmup", value, 0);
      i++;
    } else if (strcmp(argv[i], "--dump") == 0) {
      if (value == NULL) fail("--dump needs a directory", NULL);
      dump_directory = value;
      i++;
    } else {
      fail("unknown option (try --help): ", argv[i]);
    }
  }
  // Fewer than 300 frames only for one figure at a time (instruction counts).
  if (frames_text != NULL) frames = parse_count("--frames", frames_text, only ? 1 : 300);
  if (size_count == 0) {
    sizes[0] = (layout){.width = 800, .height = 480};
    sizes[1] = (layout){.width = 1280, .height = 720};
    sizes[2] = (layout){.width = 1920, .height = 1080};
    size_count = 3;
  }
  int status = 0;
  for (int s = 0; s < size_count; s++) {
    layout l = rule_layout(sizes[s].width, sizes[s].height);
    for (int k = 0; k < layout_count; k++) {
      if (layouts[k].width == l.width && layouts[k].height == l.height) l = layouts[k];
    }
    status |= run(&l, frames, warmup, dump_directory, only);
  }
  return status;
}
