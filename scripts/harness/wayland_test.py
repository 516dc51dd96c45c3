#!/usr/bin/env python3
"""patternlock session-lock under a real compositor: labwc (Debian trixie's) with its
headless back-end and the pixman renderer, run as root in a trixie tree on this host
(scripts/test-wayland makes it); the host-built patternlock connects to its socket
through the tree. Input goes through the compositor: a virtual pointer
(Tests/WaylandClient/virtual-pointer.c) and wtype's virtual keyboard; pictures come
from the compositor (grim, wlr-screencopy) and are compared with the headless render
of the same size (`patternlock replay --dump`). swaybg paints the desktop magenta, so a
picture tells an unlocked session (magenta) from a locked one. session-lock runs as
root, but in `desktop_user`, where it runs as user nobody and asks root's judge.

The scenarios are in wayland_scenarios/, a module per area (STEPS below, in this order),
each with a compositor of its own set up and torn down by wayland_scenarios/session.py.

Usage: wayland_test.py ROOT PATTERNLOCK VIRTUAL_POINTER WORKDIR
Prints "ok"/"FAIL" lines and ends with "wayland: N passed, N failed"; exit 1 on a failure.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib.checks import Failure  # noqa: E402
from wayland_scenarios.judging import desktop_user, keyboard_and_judge_socket  # noqa: E402
from wayland_scenarios.lock_and_unlock import killed_and_taken_over, lock_wrong_right  # noqa: E402
from wayland_scenarios.lockout import lockout_countdown  # noqa: E402
from wayland_scenarios.outputs import outputs_come_and_go, two_outputs_drawing  # noqa: E402
from wayland_scenarios.refusals import refusals  # noqa: E402
from wayland_scenarios.scaling import fractional_scale, scale_two  # noqa: E402
from wayland_scenarios.session import checks, paths, set_vault_pattern  # noqa: E402

STEPS = [refusals, lock_wrong_right, two_outputs_drawing, killed_and_taken_over, keyboard_and_judge_socket, desktop_user,
         outputs_come_and_go, scale_two, fractional_scale, lockout_countdown]


def main():
    paths.set(sys.argv[1:5])
    os.makedirs(paths.work, exist_ok=True)
    set_vault_pattern(paths.state)
    for step in STEPS:
        try:
            step()
        except Failure as failure:
            checks.fail(f"{step.__name__}: {failure}")
    print(f"wayland: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
