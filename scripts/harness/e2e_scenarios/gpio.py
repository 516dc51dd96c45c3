"""The board's PL061 GPIO outputs as QEMU's trace records them (what a door strike's
relay sees)."""
import time

from lib.checks import Failure


def gpio_levels(b, line, since):
    """The levels QEMU's trace shows GPIO `line` driven to after byte `since`, in order."""
    with open(b.gpio_trace, encoding="utf-8", errors="replace") as trace:
        trace.seek(since)
        return [l.strip()[-1] for l in trace if f"setting output {line} to " in l]


def gpio_level_seen(b, line, since, levels, within):
    """Waits until the trace after `since` ends with `levels` (such as ["1", "0"])."""
    until = b.within(within)
    while True:
        seen = gpio_levels(b, line, since)
        if seen[-len(levels):] == levels:
            return seen
        if time.monotonic() > until:
            raise Failure(f"GPIO line {line} went {seen}, not ending {levels}, within {within} s")
        time.sleep(0.2)
