// peer_scene: the benchmark peers' shared scene, finger path, damage and command
// line (see peer_scene.h).
#define _DEFAULT_SOURCE  // M_PI, clock_gettime
#include "peer_scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const int peer_selected[4] = {1, 5, 9, 6};

// The default radii and widths, in pixels (patternlock's layout at 800x480).
static const double default_ring_radius = 36, default_ring_stroke = 3, default_dot_radius = 12,
                    default_line_width = 10;

static const char *peer_name = "peer";

void peer_fail(const char *message, const char *detail) {
  fprintf(stderr, "patternlock: %s bench: %s%s\n", peer_name, message, detail ? detail : "");
  exit(2);
}

double peer_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

// patternlock's rule for a 3x3 grid without DPI (GridLayout.swift, rules 1 to 4).
static peer_layout rule_layout(int width, int height) {
  peer_layout l = {.width = width,
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
static peer_layout read_layout(const char *path) {
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    fprintf(stderr,
            "patternlock: %s bench: cannot read layout %s: %s (write it with 'patternlock-bench --layout-json WxH > %s')\n",
            peer_name, path, strerror(errno), path);
    exit(2);
  }
  static char text[65536];
  size_t count = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[count] = 0;
  peer_layout l = {0};
  const char *panel = strstr(text, "\"panel\":{\"width\":");
  if (panel == NULL || sscanf(panel, "\"panel\":{\"width\":%d,\"height\":%d", &l.width, &l.height) != 2) {
    peer_fail("layout file has no panel size (is it 'patternlock layout' output?): ", path);
  }
  const char *p = strstr(text, "\"dots\":[");
  for (int i = 0; i < 9; i++) {
    p = p ? strstr(p, "\"x\":") : NULL;
    if (p == NULL) peer_fail("layout file has fewer than 9 dots (use --grid 3): ", path);
    l.x[i] = strtod(p + 4, NULL);
    p = strstr(p, "\"y\":");
    if (p == NULL) peer_fail("layout file has a dot without y: ", path);
    l.y[i] = strtod(p + 4, NULL);
  }
  l.ring_radius = number_field(text, "\"ring_radius\":", default_ring_radius);
  l.ring_stroke = number_field(text, "\"ring_stroke\":", default_ring_stroke);
  l.dot_radius = number_field(text, "\"dot_radius\":", default_dot_radius);
  l.line_width = number_field(text, "\"line_width\":", default_line_width);
  return l;
}

void peer_finger_at(const peer_layout *l, int frame, double *x, double *y) {
  const int last = peer_selected[3] - 1;
  double pitch = l->x[1] - l->x[0];
  double angle = frame * (2 * M_PI / 120);
  *x = l->x[last] + 0.75 * pitch * cos(angle);
  *y = l->y[last] + 0.75 * pitch * sin(angle);
}

peer_box peer_damage(const peer_layout *l, double ox, double oy, double nx, double ny) {
  const int last = peer_selected[3] - 1;
  double pad = l->line_width / 2 + 1;
  double lx = l->x[last], ly = l->y[last];
  peer_box b = {
      floor(fmin(fmin(lx, ox), nx) - pad),
      floor(fmin(fmin(ly, oy), ny) - pad),
      ceil(fmax(fmax(lx, ox), nx) + pad),
      ceil(fmax(fmax(ly, oy), ny) + pad),
  };
  return b;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double peer_median(double *values, int count) {
  qsort(values, (size_t)count, sizeof *values, compare_doubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

void peer_report(const peer_layout *l, const char *figure, double *samples, int frames, const char *extra) {
  printf("{\"size\":\"%dx%d\",\"figure\":\"%s\",\"median_us\":%.1f%s}\n", l->width, l->height, figure,
         peer_median(samples, frames), extra ? extra : "");
  fflush(stdout);
}

int peer_wanted(const peer_run *run, const char *figure) {
  if (run->only == NULL) return 1;
  if (strcmp(figure, "memset") == 0) return strcmp(run->only, "memset") == 0;
  size_t n = strlen(peer_name);
  return strncmp(run->only, peer_name, n) == 0 && run->only[n] == '-' && strcmp(run->only + n + 1, figure) == 0;
}

const char *peer_dump_path(const peer_run *run, const char *figure) {
  static char path[4096];
  if (run->dump_directory == NULL) return NULL;
  snprintf(path, sizeof path, "%s/%s-%dx%d-%s.png", run->dump_directory, peer_name, run->layout->width,
           run->layout->height, figure);
  return path;
}

static void usage(void) {
  printf("usage: %s_scene [--size WxH]... [--layout FILE]... [--frames N] [--warmup N] [--dump DIR]\n"
         "                   [--only FIGURE]\n"
         "  --size WxH     a size to measure (default 800x480, 1280x720 and 1920x1080)\n"
         "  --layout FILE  dot centres and radii from 'patternlock-bench --layout-json WxH', for its size\n"
         "  --frames N     timed frames per figure, at least 300 (default 300; at least 1 with --only)\n"
         "  --warmup N     untimed frames first (default 30)\n"
         "  --dump DIR     write DIR/%s-WxH-full.png, -incremental.png and -full-rgb565.png\n"
         "  --only FIGURE  measure only memset, %s-full, %s-incremental or %s-full-rgb565\n",
         peer_name, peer_name, peer_name, peer_name, peer_name);
}

static int parse_count(const char *option, const char *value, int minimum) {
  char *end = NULL;
  long n = value ? strtol(value, &end, 10) : -1;
  if (value == NULL || *end != 0 || n < minimum || n > 1000000) {
    fprintf(stderr, "patternlock: %s bench: %s needs a whole number from %d to 1000000, not '%s'\n", peer_name,
            option, minimum, value ? value : "");
    exit(2);
  }
  return (int)n;
}

int peer_main(int argc, char **argv, const char *name, int (*measure)(const peer_run *run)) {
  peer_name = name;
  peer_layout sizes[PEER_MAX_SIZES];
  int size_count = 0;
  peer_layout layouts[PEER_MAX_SIZES];
  int layout_count = 0;
  peer_run run = {.frames = 300, .warmup = 30};
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
        peer_fail("--size needs WxH with each side 16 to 8192, not ", value ? value : "nothing");
      }
      if (size_count == PEER_MAX_SIZES) peer_fail("too many --size options (at most 8)", NULL);
      sizes[size_count++] = (peer_layout){.width = w, .height = h};
      i++;
    } else if (strcmp(argv[i], "--layout") == 0) {
      if (value == NULL) peer_fail("--layout needs a file", NULL);
      if (layout_count == PEER_MAX_SIZES) peer_fail("too many --layout options (at most 8)", NULL);
      layouts[layout_count++] = read_layout(value);
      i++;
    } else if (strcmp(argv[i], "--frames") == 0) {
      if (value == NULL) peer_fail("--frames needs a number", NULL);
      frames_text = value;
      i++;
    } else if (strcmp(argv[i], "--only") == 0) {
      if (value == NULL) peer_fail("--only needs a figure", NULL);
      run.only = value;
      if (!peer_wanted(&run, "memset") && !peer_wanted(&run, "full") && !peer_wanted(&run, "incremental") &&
          !peer_wanted(&run, "full-rgb565")) {
        fprintf(stderr, "patternlock: %s bench: --only takes memset, %s-full, %s-incremental or %s-full-rgb565, not '%s'\n",
                name, name, name, name, value);
        exit(2);
      }
      i++;
    } else if (strcmp(argv[i], "--warmup") == 0) {
      run.warmup = parse_count("--warmup", value, 0);
      i++;
    } else if (strcmp(argv[i], "--dump") == 0) {
      if (value == NULL) peer_fail("--dump needs a directory", NULL);
      run.dump_directory = value;
      i++;
    } else {
      peer_fail("unknown option (try --help): ", argv[i]);
    }
  }
  // Fewer than 300 frames only for one figure at a time (instruction counts).
  if (frames_text != NULL) run.frames = parse_count("--frames", frames_text, run.only ? 1 : 300);
  if (size_count == 0) {
    sizes[0] = (peer_layout){.width = 800, .height = 480};
    sizes[1] = (peer_layout){.width = 1280, .height = 720};
    sizes[2] = (peer_layout){.width = 1920, .height = 1080};
    size_count = 3;
  }
  int status = 0;
  for (int s = 0; s < size_count; s++) {
    peer_layout l = rule_layout(sizes[s].width, sizes[s].height);
    for (int k = 0; k < layout_count; k++) {
      if (layouts[k].width == l.width && layouts[k].height == l.height) l = layouts[k];
    }
    run.layout = &l;
    int s_status = measure(&run);
    if (s_status > status) status = s_status;
  }
  return status;
}
