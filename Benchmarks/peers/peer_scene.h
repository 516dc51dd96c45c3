// peer_scene: what the benchmark's peers (cairo_scene, lvgl_scene, qt_scene) share:
// the scene's layout, the finger's path, the damage rectangle, the command line
// and the JSON figure lines. Each peer supplies only its drawing.
//
// Command line (every peer):
//   --size WxH     a size to measure (default 800x480, 1280x720 and 1920x1080)
//   --layout FILE  dot centres and radii from `patternlock-bench --layout-json WxH`
//   --frames N     timed frames per figure, at least 300 (at least 1 with --only)
//   --warmup N     untimed frames first (default 30)
//   --dump DIR     write DIR/PEER-WxH-FIGURE.png for each figure's last frame: the
//                  full figures end on finger frame warmup+frames-1, the incremental
//                  one on warmup+frames, as patternlock-bench --dump's
//   --only FIGURE  measure only that figure (memset or PEER-full, -incremental, -full-rgb565)
//
// Figure lines: {"size":"800x480","figure":"PEER-full","median_us":412.3}, plus
// any extra fields the peer adds (lvgl_scene adds the pixels it redrew).
#ifndef PEER_SCENE_H
#define PEER_SCENE_H

#ifdef __cplusplus
extern "C" {
#endif

enum { PEER_MAX_SIZES = 8 };

// The scene: a solid background; a 3x3 grid of rings with filled dots; a polyline
// with round caps and joins through dots 1, 5, 9 and 6 and on to the finger, under
// the rings and dots. Colours as 0xRRGGBB.
enum {
  peer_background = 0x101418,
  peer_line = 0x4fc3f7,
  peer_ring = 0x5a6470,
  peer_dot = 0xe0e0e0,
};
extern const int peer_selected[4];  // dot numbers, row-major from 1

typedef struct {
  int width, height;
  double x[9], y[9];
  double ring_radius, ring_stroke, dot_radius, line_width;
} peer_layout;

typedef struct {
  double x0, y0, x1, y1;
} peer_box;

// The finger on frame `frame`: it circles the last selected dot at three quarters
// of the dot pitch, 1/120 of a turn per frame.
void peer_finger_at(const peer_layout *l, int frame, double *x, double *y);

// The damage when the finger moves from (ox, oy) to (nx, ny): the bounding boxes of
// the old and the new last segment (last selected dot to the finger), widened by
// half the line width and a pixel for anti-aliasing, snapped outwards to whole
// pixels: the rectangle patternlock's damage(from:to:) gives.
peer_box peer_damage(const peer_layout *l, double ox, double oy, double nx, double ny);

double peer_now_us(void);
// Sorts `values` and returns their median.
double peer_median(double *values, int count);
// Prints one figure line: size, `figure`, the median of `samples`, then `extra`
// (",\"key\":value..." or NULL) before the closing brace.
void peer_report(const peer_layout *l, const char *figure, double *samples, int frames, const char *extra);
// `PEER: message detail` on standard error, exit status 2.
void peer_fail(const char *message, const char *detail) __attribute__((noreturn));

// What one run of a peer is asked to do, for one size.
typedef struct {
  const peer_layout *layout;
  int frames, warmup;
  const char *dump_directory;  // NULL: no pictures
  const char *only;            // NULL: every figure
} peer_run;

// Whether `run` measures `figure` ("memset", "full", "incremental", "full-rgb565").
int peer_wanted(const peer_run *run, const char *figure);
// DIR/PEER-WxH-FIGURE.png, in a static buffer (NULL when no dump directory).
const char *peer_dump_path(const peer_run *run, const char *figure);

// Parses the command line, and calls `measure` once per size; returns the exit
// status (the largest `measure` returned). `name` is the peer's ("cairo", "lvgl",
// "qt"), its figures are `name-full` and so on.
int peer_main(int argc, char **argv, const char *name, int (*measure)(const peer_run *run));

#ifdef __cplusplus
}
#endif
#endif
