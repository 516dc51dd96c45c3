"""What every end-to-end area shares: the guest's paths and commands, the owner's
pattern and the captures that draw it, the lockout's length, idle blanking's timing and
the tablet drag (also written as scripts/test-e2e's reference captures)."""
import os

from lib.layout import write_tablet_capture


CAPTURES = "/usr/share/patternlock/captures"
# run takes the DPI from the display's reported size, replay has none: both get this one
# (and so does the layout the touches are placed from).
DPI = "--dpi 96"
# inject waits this long for udev to tag its device and libinput to open it (TCG is slow).
INJECT = "patternlock inject --wait 3000"
# The Vault steps: the default state dir on the state disk, a cheap hash (TCG is slow), and five
# distinct wrong captures (a repeated wrong pattern would not count again).
STATE = "/var/lib/patternlock"
# The administrator's file, where the privileged keys (exec, gpio-unlock) must be.
SYSTEM_CONF = "/etc/patternlock.conf"
CHEAP_HASH = "--argon-memory-mib 8 --argon-passes 1"
# The owner's pattern every step sets or judges against (README.md, "Choosing a pattern":
# an enrolment accepts it), and the shipped captures that draw it.
PATTERN = "2-5-9-4-3"
RIGHT_CAPTURE, ROTATED_CAPTURE = "strong-25943", "rotated-90-25943"
WRONG_CAPTURES = ["z-1235789", "fast-swipe-1-3-9", "single-touch-14789", "two-fingers", "two-gestures"]
LOCKOUT_S = 60
# Idle blanking: the idle time, and the power state of the connector run drives (the
# connected one; a disconnected connector always reads Off).
IDLE_BLANK_S = 2
CONNECTED_DPMS = ("for c in /sys/class/drm/card0-*; do [ \"$(cat $c/status)\" = connected ] && cat $c/dpms; done")
# The tablet drag: a wrong 4-3-5-9-2 (step 15's duress credential, so one an enrolment
# accepts), paused half way from 5 to 9 (the mid-gesture screendump); the QMP events and
# the reference capture both come from it.
TABLET_DOTS, PAUSE_AFTER = [4, 3, 5, 9, 2], 2
# The right pattern with the tablet, for the boot straight into the lock.
UNLOCK_DOTS = [int(d) for d in PATTERN.split("-")]


def tablet_drag_steps(layout):
    """(steps, the index of the mid-gesture pause) of the tablet drag on `layout`."""
    return layout.gesture(TABLET_DOTS, pause_after=PAUSE_AFTER)


def write_tablet_captures(out, template, layout):
    """scripts/test-e2e's references of the tablet drag: the whole drag, and the drag up
    to the pause."""
    steps, pause = tablet_drag_steps(layout)
    write_tablet_capture(os.path.join(out, "tablet-drag.yaml"), layout, [steps], template)
    write_tablet_capture(os.path.join(out, "tablet-held.yaml"), layout, [steps[:pause + 1]], template)


def countdown_text(index):
    """The countdown's text `index` seconds into the lockout (0: 1:00)."""
    left = LOCKOUT_S - index
    return f"{left // 60}:{left % 60:02d}"
