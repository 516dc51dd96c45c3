"""The headless renders the compositor's pictures are compared with: `patternlock replay
--dump` of a capture (shipped, or a synthetic one of the gesture from make-capture.py) at
an output's size."""
import os
import subprocess
import sys

from lib import pictures

from .session import CAPTURES, MAKE_CAPTURE, PATTERN, WRONG_ONES, paths, set_vault_pattern


def make_capture(size, capture, *options):
    """A synthetic ft5406 capture at `size` (WxH) written to `capture` by make-capture.py."""
    subprocess.run([sys.executable, MAKE_CAPTURE, "--device", "ft5406", "--size", size] + list(options)
                   + ["--patternlock", paths.patternlock, "-o", capture], check=True, capture_output=True)


def frame_at(size):
    """The idle lock screen at `size` (WxH) as the headless render draws it."""
    out = os.path.join(paths.work, f"replay-{size}")
    if not os.path.isdir(out):
        capture = os.path.join(CAPTURES, "l-shape-1236.yaml")
        subprocess.run([paths.patternlock, "replay", capture, "--size", size, "--dump", out], check=True, capture_output=True)
    return pictures.decode_png_rgb(os.path.join(out, "00000.png"))


def verdict_frames(size, dots, feedback_ms):
    """The last pictures the headless render shows for `dots` drawn at `size` (WxH)
    against PATTERN, the verdict held `feedback_ms`: a synthetic capture of the gesture
    replayed."""
    name = "-".join(map(str, dots))
    out = os.path.join(paths.work, f"verdict-{name}-{size}")
    capture = os.path.join(paths.work, f"verdict-{name}-{size}.yaml")
    make_capture(size, capture, "--path", name)
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([paths.patternlock, "replay", capture, "--size", size, "--feedback-ms", str(feedback_ms), "--pattern",
                    "-".join(map(str, PATTERN)), "--dump", out], check=True, capture_output=True)
    # The verdict is among the last pictures (then the idle lock once it has had its
    # time); decoding every picture of the gesture would take a minute here.
    return list(rendered_from_end(out, 3))


def rendered_from_end(directory, limit):
    """The last `limit` pictures of a headless render, the newest first, each decoded
    only when asked for (a picture takes a second or so to decode here)."""
    for name in sorted(os.listdir(directory))[::-1][:limit]:
        yield pictures.decode_png_rgb(os.path.join(directory, name))


def drawing_render(size, dots):
    """The directory of the pictures the headless render shows while `dots` are drawn
    at `size` (WxH), the finger resting on the last dot's centre in whole pixels as the
    virtual pointer holds it: a synthetic capture of the gesture, without jitter,
    replayed. Its last pictures are the finger on the last dot, the verdict, the idle
    lock."""
    name = "-".join(map(str, dots))
    out = os.path.join(paths.work, f"drawing-{name}-{size}")
    capture = out + ".yaml"
    make_capture(size, capture, "--path", name, "--jitter", "0")
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([paths.patternlock, "replay", capture, "--size", size, "--dump", out], check=True, capture_output=True)
    return out


def countdown_render(size):
    """The directory of the pictures the headless render shows for WRONG_ONES drawn at
    `size` (WxH) against a vault of PATTERN, then five more gestures refused during the
    lockout, so the countdown runs on the recording's clock for about fifteen seconds
    (its ticks are the last pictures: one a second, from 1:00 down)."""
    state = os.path.join(paths.work, f"state-countdown-{size}")
    out = os.path.join(paths.work, f"countdown-{size}")
    capture = out + ".yaml"
    subprocess.run(["rm", "-rf", out], check=True)
    set_vault_pattern(state)
    gestures = ["-".join(map(str, dots)) for dots in WRONG_ONES] + ["-".join(map(str, PATTERN))] * 5
    make_capture(size, capture, *[a for gesture in gestures for a in ("--path", gesture)])
    subprocess.run([paths.patternlock, "replay", capture, "--size", size, "--state-dir", state, "--dump", out], check=True,
                   capture_output=True)
    return out
