#!/usr/bin/env bash
# Writes every recording of real hardware in ../real as a controller polled at 25 Hz and
# at 50 Hz reports it (scripts/harness/slow-panel.py): NAME-25hz.yml, NAME-50hz.yml here,
# or in DIR:
#   Tests/Captures/slow/generate.sh [DIR]
# RealCaptureTests writes them into a temporary DIR and compares them with the committed
# ones, and replays each to the same patterns as its full-rate recording.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
slow=$here/../../../scripts/harness/slow-panel.py
out=${1:-$here}
mkdir -p "$out"
for recording in "$here"/../real/*.yml; do
  name=$(basename "$recording" .yml)
  for hz in 25 50; do
    python3 "$slow" --hz "$hz" "$recording" "$out/$name-${hz}hz.yml"
  done
done
