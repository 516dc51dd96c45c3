# Sourced by scripts that need a recording of a lockout (scripts/test-e2e,
# scripts/test-cross-arch): five distinct wrong patterns against a vault holding
# 2-5-9-4-3 (README.md's example pattern), then ten refused gestures that keep the recording's clock running for
# about 20 s of countdown after the lockout begins.
#
# make_lockout_capture OUT.yaml
make_lockout_capture() {
  local paths=(--path 1-5-9-8 --path 7-8-9-6 --path 2-5-8-7 --path 4-5-6-9 --path 3-2-1-4-7) _
  for _ in 1 2 3 4 5 6 7 8 9 10; do paths+=(--path 1-2-3-6-9-8-7); done
  python3 scripts/harness/make-capture.py --device ft5406 --seed 5 "${paths[@]}" -o "$1"
}
