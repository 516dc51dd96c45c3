// qt_scene: the Qt peer in patternlock's rendering benchmark.
//
// Draws the benchmark scene (Benchmarks/peers/peer_scene.h) with QPainter, Qt 6's
// raster paint engine (what linuxfb and eglfs's software path use), into a QImage
// of Format_RGB32 (XRGB8888) and one of Format_RGB16 (RGB565), with
// QPainter::Antialiasing. The scene as patternlock draws it: the background, the
// polyline through dots 1, 5, 9 and 6 and on to the finger (one QPainterPath stroked
// with a round-capped, round-joined pen), the rings and the dots, those of the
// selected dots in the line's colour.
//
// Figures:
//   qt-full         the whole scene every frame.
//   qt-incremental  only the finger moved: the scene redrawn with
//                   QPainter::setClipRect on the damaged rectangle (peer_damage),
//                   patternlock's damage; the figure line adds
//                   "damage_pixels_per_frame", that rectangle's mean area.
//   qt-full-rgb565  qt-full into the RGB565 image.
//
// After timing, the last incremental frame is compared with a full redraw of the
// same finger position (exit status 1 on a difference above anti-aliasing noise).
//
// Build: Benchmarks/qt/run-qt.sh.
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../peers/peer_scene.h"

namespace {

// The largest per-channel difference between the repaired and the full frame
// that is still anti-aliasing noise (a stale segment differs by over 100 levels).
const int max_edge_noise = 32;

bool is_selected(int dot) {
  for (int k = 0; k < 4; k++) {
    if (peer_selected[k] == dot + 1) return true;
  }
  return false;
}

void draw_scene(QPainter &p, const peer_layout *l, double fx, double fy) {
  p.fillRect(QRectF(0, 0, l->width, l->height), QColor::fromRgb(peer_background));
  QPainterPath trail;
  trail.moveTo(l->x[peer_selected[0] - 1], l->y[peer_selected[0] - 1]);
  for (int k = 1; k < 4; k++) trail.lineTo(l->x[peer_selected[k] - 1], l->y[peer_selected[k] - 1]);
  trail.lineTo(fx, fy);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(QColor::fromRgb(peer_line), l->line_width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  p.drawPath(trail);
  for (int i = 0; i < 9; i++) {
    p.setPen(QPen(QColor::fromRgb(is_selected(i) ? peer_line : peer_ring), l->ring_stroke));
    p.drawEllipse(QPointF(l->x[i], l->y[i]), l->ring_radius, l->ring_radius);
  }
  p.setPen(Qt::NoPen);
  for (int i = 0; i < 9; i++) {
    p.setBrush(QColor::fromRgb(is_selected(i) ? peer_line : peer_dot));
    p.drawEllipse(QPointF(l->x[i], l->y[i]), l->dot_radius, l->dot_radius);
  }
}

void dump(const QImage &image, const peer_run *run, const char *figure) {
  const char *path = peer_dump_path(run, figure);
  if (path == nullptr) return;
  if (!image.convertToFormat(QImage::Format_RGB888).save(path, "PNG")) {
    std::fprintf(stderr, "patternlock: qt bench: cannot write %s (does the directory exist?)\n", path);
    std::exit(1);
  }
}

void run_memset(const peer_run *run, double *samples) {
  QImage image(run->layout->width, run->layout->height, QImage::Format_RGB32);
  for (int i = -run->warmup; i < run->frames; i++) {
    double t0 = peer_now_us();
    image.fill(uint(i & 0xff) * 0x01010101u);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  peer_report(run->layout, "memset", samples, run->frames, nullptr);
}

void run_full(const peer_run *run, QImage::Format format, const char *figure, double *samples) {
  const peer_layout *l = run->layout;
  QImage image(l->width, l->height, format);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing);
  double fx, fy;
  for (int i = -run->warmup; i < run->frames; i++) {
    peer_finger_at(l, i + run->warmup, &fx, &fy);
    double t0 = peer_now_us();
    draw_scene(p, l, fx, fy);
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  p.end();
  char name[64];
  std::snprintf(name, sizeof name, "qt-%s", figure);
  peer_report(l, name, samples, run->frames, nullptr);
  dump(image, run, figure);
}

int run_incremental(const peer_run *run, double *samples) {
  const peer_layout *l = run->layout;
  QImage image(l->width, l->height, QImage::Format_RGB32);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing);
  double fx, fy;
  int frame = 0;
  double damaged = 0;
  peer_finger_at(l, frame, &fx, &fy);
  draw_scene(p, l, fx, fy);
  for (int i = -run->warmup; i < run->frames; i++) {
    double ox = fx, oy = fy;
    frame++;
    peer_finger_at(l, frame, &fx, &fy);
    double t0 = peer_now_us();
    peer_box d = peer_damage(l, ox, oy, fx, fy);
    if (i >= 0) damaged += (d.x1 - d.x0) * (d.y1 - d.y0);
    p.save();
    p.setClipRect(QRectF(d.x0, d.y0, d.x1 - d.x0, d.y1 - d.y0));
    draw_scene(p, l, fx, fy);
    p.restore();
    double t1 = peer_now_us();
    if (i >= 0) samples[i] = t1 - t0;
  }
  p.end();
  char extra[96];
  std::snprintf(extra, sizeof extra, ",\"damage_pixels_per_frame\":%.0f", damaged / run->frames);
  peer_report(l, "qt-incremental", samples, run->frames, extra);
  dump(image, run, "incremental");

  QImage full(l->width, l->height, QImage::Format_RGB32);
  QPainter q(&full);
  q.setRenderHint(QPainter::Antialiasing);
  draw_scene(q, l, fx, fy);
  q.end();
  int worst = 0, worst_x = 0, worst_y = 0;
  for (int y = 0; y < l->height; y++) {
    const QRgb *a = reinterpret_cast<const QRgb *>(image.constScanLine(y));
    const QRgb *b = reinterpret_cast<const QRgb *>(full.constScanLine(y));
    for (int x = 0; x < l->width; x++) {
      int d = std::max({std::abs(qRed(a[x]) - qRed(b[x])), std::abs(qGreen(a[x]) - qGreen(b[x])),
                        std::abs(qBlue(a[x]) - qBlue(b[x]))});
      if (d > worst) {
        worst = d;
        worst_x = x;
        worst_y = y;
      }
    }
  }
  if (worst > max_edge_noise) {
    std::fprintf(stderr,
                 "patternlock: qt bench: %dx%d incremental frame differs from a full redraw by %d levels at (%d, %d) "
                 "(the damage rectangle misses changed pixels)\n",
                 l->width, l->height, worst, worst_x, worst_y);
    return 1;
  }
  return 0;
}

int measure(const peer_run *run) {
  std::vector<double> samples(static_cast<size_t>(run->frames));
  int status = 0;
  if (peer_wanted(run, "memset")) run_memset(run, samples.data());
  if (peer_wanted(run, "full")) run_full(run, QImage::Format_RGB32, "full", samples.data());
  if (peer_wanted(run, "incremental")) status = run_incremental(run, samples.data());
  if (peer_wanted(run, "full-rgb565")) run_full(run, QImage::Format_RGB16, "full-rgb565", samples.data());
  return status;
}

}  // namespace

int main(int argc, char **argv) { return peer_main(argc, argv, "qt", measure); }
