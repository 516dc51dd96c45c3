#!/usr/bin/env bash
# Builds and runs the cairo reference for the rendering benchmark.
#
#   Benchmarks/cairo/run-cairo.sh [cairo_scene options]    e.g. --dump out/bench
#   Benchmarks/cairo/run-cairo.sh --build-only             prints the program's path
#
# Installs Debian's libcairo2-dev when pkg-config cannot find cairo, builds
# Benchmarks/cairo/cairo_scene.c into .build-bench/, and runs it: one JSON line per
# figure and size on standard output. With PATTERNLOCK=path/to/patternlock set, the
# dot centres, radii and line width come from `patternlock layout --size WxH` for
# each default size instead of cairo_scene's copy of the layout rule and its fixed
# radii. scripts/bench passes `--layout` files itself.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! pkg-config --exists cairo 2>/dev/null; then
  echo "run-cairo: cairo not found; installing libcairo2-dev" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y libcairo2-dev >&2 || { apt-get update >&2 && apt-get install -y libcairo2-dev >&2; }
  elif command -v sudo >/dev/null; then
    sudo apt-get install -y libcairo2-dev >&2
  else
    echo "patternlock: cairo bench: libcairo2-dev is not installed (run 'apt-get install libcairo2-dev' as root)" >&2
    exit 1
  fi
fi

out=.build-bench
mkdir -p "$out"
cc=${CC:-cc}
# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$cc" -O2 -Wall -Wextra -o "$out/cairo_scene" Benchmarks/cairo/cairo_scene.c Benchmarks/peers/peer_scene.c $(pkg-config --cflags --libs cairo) -lm
if [ "${1:-}" = --build-only ]; then
  echo "$out/cairo_scene"
  exit 0
fi

layouts=()
if [ -n "${PATTERNLOCK:-}" ]; then
  for size in 800x480 1280x720 1920x1080; do
    "$PATTERNLOCK" layout --size "$size" > "$out/layout-$size.json"
    layouts+=(--layout "$out/layout-$size.json")
  done
fi

exec "$out/cairo_scene" "${layouts[@]}" "$@"
