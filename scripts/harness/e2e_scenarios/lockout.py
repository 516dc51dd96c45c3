"""Steps 9 to 11: failures counted across a power cut, the lockout and its countdown,
restarted in full after a restart of run and after another power cut."""
import json
import os
import time

from lib.checks import Failure, expect_status

from .common import CAPTURES, INJECT, LOCKOUT_S, RIGHT_CAPTURE, STATE, WRONG_CAPTURES, countdown_text
from .flips import paired_flips, trace_offset, transfer_bytes


def failures_and_lockout(b):
    """9. Four distinct wrong patterns count 1..4 (the 2nd from `patternlock check` while
    run is up); a power cut the moment run has shown the 4th (it wrote the counter first,
    so the next boot must go on from 4); the 5th is failure 5 and locks out: the
    countdown on screen, and even the right pattern is not judged."""
    since = b.start_run("--timing --feedback-ms 500")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)
    for count, capture in enumerate(WRONG_CAPTURES[:-1], start=1):
        if count == 2:
            # Another process on the same state directory while run is up: run must
            # count on from check's failure (it re-reads the record under the lock).
            status = b.console.shell("echo 9-8-7-4 | patternlock check >/dev/null", b.within(30))
            b.require("vault: check on run's state directory counts failure 2 (exit 3)", lambda: expect_status(status, 3))
            continue
        wrong(b, count, capture)
        if count < len(WRONG_CAPTURES) - 1:
            time.sleep(1.0)  # the verdict (500 ms) ends before the next gesture starts
    rebooted(b, "power cut right after the 4th failure was shown")

    # The 5th failure after the reboot is number 5, not 1: the counter survived.
    since = b.start_run("--timing --feedback-ms 500")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)
    wrong(b, len(WRONG_CAPTURES), WRONG_CAPTURES[-1])
    b.locked_at = time.monotonic()
    time.sleep(1.0)  # the verdict (500 ms) gives way to the countdown

    def counting_down():
        first = b.countdown_on_screen("lockout")
        if first > 3:
            raise Failure(f"the countdown showed {countdown_text(first)} {time.monotonic() - b.locked_at:.0f} s after the lockout began")
        return f"the headless countdown pictures exactly, from {countdown_text(first)}, ticking"
    b.check("vault: the lockout countdown is on screen after the 5th failure", counting_down)
    b.check("vault: even the right pattern is ignored during the lockout", lambda: refused_in_lockout(b))


def refused_in_lockout(b):
    """During a lockout run does not judge input at all: no result line, no unlock."""
    mark = b.console.mark()
    status = b.console.shell(f"{INJECT} {CAPTURES}/{RIGHT_CAPTURE}.yaml >/dev/null", b.within(20))
    if status != 0:
        raise Failure(f"inject exited {status}")
    time.sleep(1.0)
    said = b.run_answers(mark)
    if said:
        raise Failure(f"run answered during the lockout: {said}")
    _, _, now = b.screendump("lockout-refused")
    if now not in b.countdown():
        raise Failure(f"the countdown is gone after the attempt; see {b.work}/lockout-refused.ppm")
    os.remove(os.path.join(b.work, "lockout-refused.ppm"))
    return "no result line, no unlock, the countdown stays"


def wrong(b, count, capture):
    """Injects a distinct wrong pattern and requires that run counted it as failure `count`."""
    mark = b.inject(capture)
    want = f"failures {count}"

    def counted():
        got = b.run_json(mark, 20, f"a result with {want}", lambda o: o.get("failures") == count)
        lockout = got.get("retry_in_s")
        if got.get("result") != "wrong" or lockout != (LOCKOUT_S if count == len(WRONG_CAPTURES) else None):
            raise Failure(f"got {json.dumps(got)}")
        return json.dumps(got)
    b.require(f"vault: wrong pattern {capture} counts ({want})", counted)


def rebooted(b, why):
    """A power cut now, then the board boots again from the same state disk (required)."""
    b.power_cut()
    b.require(f"{why}: the board boots again", b.boot)
    state_line = b.console.wait(lambda l: l.startswith("PL-STATE-DISK"), 0, b.deadline, "the state disk's mount line")

    def keeps_state():
        if "patternlock" not in state_line.split(":", 1)[1].split():
            raise Failure(f"no patternlock directory on the disk: {state_line}")
        return state_line
    b.require(f"{why}: the state disk is mounted and keeps {STATE}", keeps_state)


def restart_in_lockout(b):
    """10. run restarted (SIGTERM, then run again) with the same state: locked out at
    once, the countdown from 1:00 again."""
    b.stop_run()
    b.run_line(b.run_since, "exit 1", 10, "'exit 1' after SIGTERM")
    locked_out_in_full(b, "restart")


def power_cut_in_lockout(b):
    """11. A power cut during the lockout and a third boot: locked out at once, the
    countdown from 1:00 again."""
    rebooted(b, "power cut during the lockout")
    since = locked_out_in_full(b, "reboot")
    b.stop_run()
    b.run_line(since, "exit 1", 10, "'exit 1' after SIGTERM")


def locked_out_in_full(b, when):
    """Starts run again and checks that the countdown is on screen at once and begins at
    1:00 again (restarted in full), not at the old lockout's remainder; returns run's
    console mark."""
    restarted = time.monotonic()
    traced = trace_offset(b)
    since = b.start_run("--timing --feedback-ms 500")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)

    def full_again():
        first = b.countdown_on_screen(f"lockout-{when}")
        elapsed = time.monotonic() - b.locked_at
        if first > 3:
            raise Failure(f"the countdown after the {when} shows {countdown_text(first)} ({elapsed:.0f} s after the 5th failure, "
                          f"{time.monotonic() - restarted:.0f} s after the {when}): not restarted in full")
        return f"{countdown_text(first)} {elapsed:.0f} s after the 5th failure (the old lockout would show {countdown_text(min(int(elapsed), LOCKOUT_S))})"
    b.check(f"vault {when}: locked out at once, the countdown restarted in full", full_again)
    if when == "restart":
        b.check("bytes per flip of the lockout countdown (a full redraw, then one tick a second)",
                lambda: countdown_transfers(b, traced, since))
    return since


def countdown_transfers(b, offset, since):
    time.sleep(1.5)  # a tick or two more
    flips = paired_flips(b, offset, since)
    if len(flips) < 3:
        raise Failure(f"only {len(flips)} flips")
    first, ticks = flips[0], flips[1:]
    tick_bytes = sorted(transfer_bytes(sent) for _, sent in ticks)
    figure = (f"countdown: full redraw {transfer_bytes(first[1])} B (damage {first[0][0]}x{first[0][1]}); "
              f"each tick {tick_bytes[len(tick_bytes) // 2]} B median, {tick_bytes[-1]} B max over {len(ticks)} ticks, "
              f"before {b.full_frame_bytes()} B a flip")
    b.transfers.append(figure)
    return figure
