#!/usr/bin/env bash
# Builds and runs the Qt peer for the rendering benchmark, and the frame
# comparison tool that checks every peer's pictures against ours.
#
#   Benchmarks/qt/run-qt.sh [qt_scene options]    e.g. --dump out/bench
#   Benchmarks/qt/run-qt.sh --build-only          prints the two programs' paths
#
# Installs Debian's qt6-base-dev when pkg-config cannot find Qt6Gui, builds
# Benchmarks/qt/qt_scene.cpp and Benchmarks/peers/frame_compare.cpp into
# .build-bench/, and runs qt_scene. Never part of the product.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! pkg-config --exists Qt6Gui 2>/dev/null; then
  echo "run-qt: Qt 6 not found; installing qt6-base-dev" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y qt6-base-dev >&2 || { apt-get update >&2 && apt-get install -y qt6-base-dev >&2; }
  elif command -v sudo >/dev/null; then
    sudo apt-get install -y qt6-base-dev >&2
  else
    echo "patternlock: qt bench: qt6-base-dev is not installed (run 'apt-get install qt6-base-dev' as root)" >&2
    exit 1
  fi
fi

out=.build-bench
mkdir -p "$out"
cc=${CC:-cc}
cxx=${CXX:-c++}
"$cc" -O2 -Wall -Wextra -c -o "$out/peer_scene.o" Benchmarks/peers/peer_scene.c
# shellcheck disable=SC2046 # pkg-config prints several words on purpose
"$cxx" -O2 -Wall -Wextra -fPIC -std=c++17 -o "$out/qt_scene" Benchmarks/qt/qt_scene.cpp "$out/peer_scene.o" \
  $(pkg-config --cflags --libs Qt6Gui) -lm
# shellcheck disable=SC2046
"$cxx" -O2 -Wall -Wextra -fPIC -std=c++17 -o "$out/frame_compare" Benchmarks/peers/frame_compare.cpp \
  $(pkg-config --cflags --libs Qt6Gui)
if [ "${1:-}" = --build-only ]; then
  echo "$out/qt_scene $out/frame_compare"
  exit 0
fi
exec "$out/qt_scene" "$@"
