#!/usr/bin/env python3
"""Boots the QEMU image and checks it over the serial console and QMP (stdlib only).

Usage: qemu_test.py --expected FILE --layout FILE --screendump OUT.png [--timeout S] [--log FILE]

Starts `scripts/qemu-run --headless --mode replay`, then:
  1. connects to QMP and negotiates capabilities (`qmp_capabilities`);
  2. waits for the guest's `PL-READY` (display and input devices up) and checks that
     udev tagged an input device `ID_INPUT=1` (`PL-INPUT` lines);
  3. takes a `screendump` of the virtio-gpu display as PNG and checks its size and
     that the guest's console text shows (more than one colour), then
     sends a tablet tap with `input-send-event` to the display device, on the middle
     dot of the layout (`patternlock layout` of the panel, in FILE);
  4. waits for `PL-DONE` and compares the guest's `PL-OUT/ERR/FRAME/STATUS/CAPTURES`
     lines with FILE (the same lines from the host build), naming the first difference;
  5. waits for the guest to power off (QMP `quit` if it does not).
Every wait is bounded by --timeout (whole run). Exit 0 when all checks pass, 1 otherwise.
Prints the timings and one line per check.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import machine, pictures  # noqa: E402
from lib.board import Board  # noqa: E402
from lib.checks import Failure  # noqa: E402
from lib.layout import Layout  # noqa: E402

RESULT_PREFIXES = ("PL-OUT ", "PL-ERR ", "PL-FRAME ", "PL-STATUS ", "PL-CAPTURES ")


def compare(expected_path, console_lines):
    """How many result lines the guest printed, all equal to the host's; a Failure
    naming the first that differs."""
    with open(expected_path, encoding="utf-8") as f:
        expected = [line.rstrip("\n") for line in f if line.startswith(RESULT_PREFIXES)]
    actual = [line for line in console_lines if line.startswith(RESULT_PREFIXES)]
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            raise Failure(f"guest result line {index + 1} differs:\n  host:  {want}\n  guest: {got}")
    if len(expected) != len(actual):
        raise Failure(f"host printed {len(expected)} result lines, guest {len(actual)}")
    if not expected:
        raise Failure("no result lines to compare (no captures?)")
    return len(expected)


def input_devices(b):
    """udev tagged an input device (the guest's PL-INPUT lines)."""
    inputs = [line for line in b.console.since(0) if line.startswith("PL-INPUT ")]
    if not any("ID_INPUT=1" in line for line in inputs):
        raise Failure(f"udev tagged no input device ID_INPUT=1 (PL-INPUT lines: {inputs})")
    return f"udev initialised input devices: {'; '.join(line[9:] for line in inputs)}"


def console_text_shows(b, screendump):
    """The guest wrote a line of text to the framebuffer console; the display updates
    asynchronously, so screendumps are retried for up to 5 s until it shows."""
    shot_deadline = b.within(5)
    while True:
        if os.path.exists(screendump):
            os.remove(screendump)
        b.qmp.execute("screendump", filename=screendump, format="png", device=machine.DISPLAY)
        size = pictures.png_size(screendump)
        if size != (b.layout.width, b.layout.height):
            raise Failure(f"screendump is {size[0]}x{size[1]}, expected {b.layout.width}x{b.layout.height}")
        colours = pictures.distinct_colours(screendump)
        if colours > 1 or time.monotonic() > shot_deadline:
            break
        time.sleep(0.25)
    if colours < 2:
        raise Failure(f"screendump {screendump} is one flat colour: the guest's console text never reached the display")
    return f"screendump {screendump} ({size[0]}x{size[1]} PNG, {colours} colours)"


def run_checks(b, args):
    """The checks of the module docstring, in order; a Failure ends them."""
    b.start(machine.image_board("replay", b.qmp_path), shell=False)
    b.ok("QMP connected, capabilities negotiated")
    b.console.wait_for("PL-READY", b.deadline)
    b.timings.append(f"ready {time.monotonic() - b.start_time:.1f} s")
    b.ok(input_devices(b))
    b.ok(console_text_shows(b, os.path.abspath(args.screendump)))
    middle = b.layout.centre((len(b.layout.centres) + 1) // 2)
    b.tablet(*middle, True)
    b.tablet(*middle, False)
    b.ok(f"input-send-event accepted by the display device (a tap on the middle dot at {middle})")
    done = b.console.wait_for("PL-DONE", b.deadline)
    b.timings.append(f"replays done {time.monotonic() - b.start_time:.1f} s (guest {done.split()[-1]} s)")
    b.ok(f"guest replay results equal the host's ({compare(args.expected, b.console.since(0))} lines)")
    try:
        b.qemu.wait(timeout=max(1.0, min(15.0, b.deadline - time.monotonic())))
    except subprocess.TimeoutExpired:
        raise Failure("the guest did not power off after PL-DONE")
    b.timings.append(f"powered off {time.monotonic() - b.start_time:.1f} s")
    b.ok(f"guest powered off; timings: {', '.join(b.timings)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expected", required=True, help="host transcript (replay-captures output)")
    parser.add_argument("--layout", required=True, help="the panel's `patternlock layout` JSON")
    parser.add_argument("--screendump", required=True, help="where to write the PNG screendump")
    parser.add_argument("--timeout", type=float, default=100.0, help="seconds for the whole run")
    parser.add_argument("--log", default=".build/qemu/console.log", help="serial console log")
    args = parser.parse_args()

    board = Board(os.path.dirname(os.path.abspath(args.screendump)), args.log, args.timeout, Layout.load(args.layout))
    try:
        run_checks(board, args)
    except Failure as failure:
        board.fail(str(failure))
    finally:
        board.close()
    print(f"vm: {board.passed} passed, {board.failed} failed")
    return 0 if board.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
