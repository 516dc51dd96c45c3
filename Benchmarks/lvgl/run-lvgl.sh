#!/usr/bin/env bash
# Builds and runs the LVGL peer for the rendering benchmark.
#
#   Benchmarks/lvgl/run-lvgl.sh [lvgl_scene options]    e.g. --dump out/bench
#   Benchmarks/lvgl/run-lvgl.sh --build-only             prints the program's path
#
# LVGL v9.5.0's source comes from LVGL_SRC=DIR (any checkout of that tag) or else
# from ../shared/peers/lvgl-9.5.0-src.tar.xz next to the repository, unpacked into
# .build-bench/lvgl/. Without either it prints how to get it and exits with status
# 3, so scripts/bench can leave the LVGL figures out. LVGL is compiled once (again
# when Benchmarks/lvgl/lv_conf.h changes) with that configuration: the software
# renderer only, no display driver. Never part of the product.
set -euo pipefail
cd "$(dirname "$0")/../.."

out=.build-bench/lvgl
tarball=../shared/peers/lvgl-9.5.0-src.tar.xz
if [ -n "${LVGL_SRC:-}" ]; then
  src=$LVGL_SRC
  if [ ! -f "$src/lvgl.h" ] || [ ! -d "$src/src" ]; then
    echo "patternlock: lvgl bench: LVGL_SRC=$src is not an LVGL checkout (no lvgl.h and src/ there)" >&2
    exit 2
  fi
elif [ -f "$tarball" ]; then
  src=$out/lvgl-9.5.0
  if [ ! -f "$src/lvgl.h" ] || [ "$tarball" -nt "$src/lvgl.h" ]; then
    rm -rf "$src"
    mkdir -p "$out"
    tar -xJf "$tarball" -C "$out"
    touch "$src/lvgl.h"
  fi
else
  echo "bench: no LVGL source, so no LVGL figures: git clone --branch v9.5.0 https://github.com/lvgl/lvgl and set LVGL_SRC to it" >&2
  exit 3
fi

cc=${CC:-cc}
lib=$out/liblvgl.a
# The library is rebuilt when the configuration or the source directory changes.
stamp="$(cd "$src" && pwd) $(cksum < Benchmarks/lvgl/lv_conf.h)"
if [ ! -f "$lib" ] || [ "$(cat "$out/liblvgl.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "bench: compiling LVGL (once; a minute or two)" >&2
  rm -rf "$out/obj" "$lib"
  mkdir -p "$out/obj"
  export cc src out
  (cd "$src" && find src -name '*.c') | sort |
    xargs -P "$(nproc)" -I{} sh -c 'o="$out/obj/$(echo "{}" | tr / _).o"; "$cc" -O2 -DLV_CONF_INCLUDE_SIMPLE -IBenchmarks/lvgl -I"$src" -c "$src/{}" -o "$o"' >&2
  ar rcs "$lib" "$out"/obj/*.o
  echo "$stamp" > "$out/liblvgl.stamp"
fi
# gcc 12 misreads the points array LVGL takes as one of length 0 (-Wstringop-overread).
"$cc" -O2 -Wall -Wextra -Wno-stringop-overread -DLV_CONF_INCLUDE_SIMPLE -IBenchmarks/lvgl -I"$src" -o "$out/lvgl_scene" \
  Benchmarks/lvgl/lvgl_scene.c Benchmarks/peers/peer_scene.c "$lib" -lpng -lm
if [ "${1:-}" = --build-only ]; then
  echo "$out/lvgl_scene"
  exit 0
fi
exec "$out/lvgl_scene" "$@"
