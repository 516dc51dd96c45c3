// frame_compare: checks that a peer draws what patternlock draws.
//
//   frame_compare OURS.png PEER.png
//
// Renderers anti-alias differently: the same edge comes out a few levels apart,
// or shifted by a fraction of a pixel, and RGB565 rounds each channel. So a peer's
// pixel counts as the same when, in every channel, it is within `tolerance` levels
// of ours, or within `tolerance` of the range our pixel's 3x3 neighbourhood spans
// (an edge moved by up to a pixel). Any other pixel differs; more than one in
// `max_differing_ratio` of the frame (a quarter of a dot's area at every size),
// or a different size, is a peer drawing less or something else: one line on
// standard error and exit status 1. Prints one line: the count, the bound, the worst.
#include <QImage>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace {
const int tolerance = 40;
const long max_differing_ratio = 4000;

int channel(QRgb c, int k) { return k == 0 ? qRed(c) : k == 1 ? qGreen(c) : qBlue(c); }
}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: frame_compare OURS.png PEER.png\n");
    return 2;
  }
  QImage ours(argv[1]), peer(argv[2]);
  if (ours.isNull() || peer.isNull()) {
    std::fprintf(stderr, "patternlock: bench: cannot read %s (was it dumped?)\n", ours.isNull() ? argv[1] : argv[2]);
    return 2;
  }
  ours = ours.convertToFormat(QImage::Format_RGB32);
  peer = peer.convertToFormat(QImage::Format_RGB32);
  if (ours.size() != peer.size()) {
    std::fprintf(stderr, "patternlock: bench: %s is %dx%d, %s is %dx%d\n", argv[1], ours.width(), ours.height(), argv[2],
                 peer.width(), peer.height());
    return 1;
  }
  const int w = ours.width(), h = ours.height();
  long differing = 0;
  int worst = 0, worst_x = 0, worst_y = 0;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      QRgb p = peer.pixel(x, y), o = ours.pixel(x, y);
      bool same = true;
      int excess = 0;
      for (int k = 0; k < 3; k++) {
        int v = channel(p, k);
        if (std::abs(v - channel(o, k)) <= tolerance) continue;
        int lo = 255, hi = 0;
        for (int dy = -1; dy <= 1; dy++) {
          for (int dx = -1; dx <= 1; dx++) {
            int nx = std::clamp(x + dx, 0, w - 1), ny = std::clamp(y + dy, 0, h - 1);
            int n = channel(ours.pixel(nx, ny), k);
            lo = std::min(lo, n);
            hi = std::max(hi, n);
          }
        }
        int outside = v < lo ? lo - v : v > hi ? v - hi : 0;
        if (outside > tolerance) {
          same = false;
          excess = std::max(excess, std::abs(v - channel(o, k)));
        }
      }
      if (!same) {
        differing++;
        if (excess > worst) {
          worst = excess;
          worst_x = x;
          worst_y = y;
        }
      }
    }
  }
  long bound = (long)w * h / max_differing_ratio;
  std::printf("%s: %ld pixels differ from %s (at most %ld allowed), worst %d levels at (%d, %d)\n", argv[2], differing,
              argv[1], bound, worst, worst_x, worst_y);
  if (differing > bound) {
    std::fprintf(stderr, "patternlock: bench: %s differs from %s in %ld pixels (more than %ld): it draws less or something else\n",
                 argv[2], argv[1], differing, bound);
    return 1;
  }
  return 0;
}
