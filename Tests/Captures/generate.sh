#!/usr/bin/env bash
# Regenerates the synthetic captures in this directory with scripts/harness/make-capture.py
# (which asks the debug build for the layout: `swift build` first, or the binary
# $PATTERNLOCK_BINARY names), or writes them into DIR instead:
#   Tests/Captures/generate.sh [DIR]
# ReplayCommandTests writes them into a temporary DIR and compares them with the
# committed ones, so a capture and the generator cannot drift apart.
# The expected outputs (*.expected.jsonl) are written by hand from the paths below,
# not by this script: see README.md.
set -euo pipefail
make=$(cd "$(dirname "$0")/../../scripts/harness" && pwd)/make-capture.py
binary=(${PATTERNLOCK_BINARY:+--patternlock "$PATTERNLOCK_BINARY"})
mkdir -p "${1:-$(dirname "$0")}"
cd "${1:-$(dirname "$0")}"

python3 "$make" "${binary[@]}" --device ft5406 --path 1-2-3-6 --seed 1 -o l-shape-1236.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 1-2-3-5-7-8-9 --seed 2 -o z-1235789.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 1-2 --seed 3 -o too-short-12.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 1-3-9 --fast --seed 4 -o fast-swipe-1-3-9.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 7-4-1-2-3 --second-finger 9:0.3:0.6 --seed 5 -o two-fingers.yaml
python3 "$make" "${binary[@]}" --device ads7846 --path 1-4-7-8-9 --seed 6 -o single-touch-14789.yaml
python3 "$make" "${binary[@]}" --device qemu-tablet --path 3-5-7-8 --seed 7 -o tablet-pointer-3-5-7-8.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 1-5-9 --path 3-2-1-4-7 --seed 8 -o two-gestures.yaml
python3 "$make" "${binary[@]}" --device ft5406 --size 480x800 --path 2-5-8-9-6 --seed 9 -o portrait-480x800-25896.yaml
python3 "$make" "${binary[@]}" --device ft5406 --rotate 90 --path 1-4-7-8 --seed 10 -o rotated-90-1478.yaml
# The example pattern the docs and the end-to-end tests set (README.md, "Choosing a
# pattern"): far down an attacker's order, so an enrolment accepts it.
python3 "$make" "${binary[@]}" --device ft5406 --path 2-5-9-4-3 --seed 14 -o strong-25943.yaml
python3 "$make" "${binary[@]}" --device ft5406 --rotate 90 --path 2-5-9-4-3 --seed 15 -o rotated-90-25943.yaml
# Taps, one gesture per dot (0.6 to 0.8 s apart): confirmed by tapping 6 again, and by
# the pause after the last tap.
python3 "$make" "${binary[@]}" --device ft5406 --path 1 --path 2 --path 3 --path 6 --path 6 --seed 11 -o taps-1236.yaml
python3 "$make" "${binary[@]}" --device ft5406 --path 7 --path 4 --path 1 --path 2 --seed 12 -o taps-pause-7412.yaml
python3 "$make" "${binary[@]}" --device ft5406 --size 480x800 --path 2 --path 5 --path 8 --path 9 --path 9 --seed 13 -o taps-480x800-2589.yaml
