"""Step 7: idle blanking on the KMS paths, and the dpms check the fbdev step shares."""
import time

from lib.checks import Failure

from .common import CAPTURES, CONNECTED_DPMS, IDLE_BLANK_S, INJECT, PATTERN, RIGHT_CAPTURE


def idle_blanking(b):
    """7. Idle blanking switches the display off and the waking touch on, on the atomic
    path and then on the legacy one."""
    for path, env in (("atomic", ""), ("legacy", "PATTERNLOCK_KMS_LEGACY=1 ")):
        blanking_on(b, path, env)


def blanking_on(b, path, env):
    """Step 7 on one KMS path (`env` selects it)."""
    label = f"idle blanking ({path})"
    since = b.start_run(f"--pattern {PATTERN} --idle-blank-s {IDLE_BLANK_S} --timing --feedback-ms {b.feedback}", env)

    def started():
        line = b.run_line(since, "patternlock: showing the lock on", 30)
        if f"({path}" not in line:
            raise Failure(f"run is not on the {path} path: {line}")
        b.run_line(since, "timing: start-to-first-flip-us=", 30)
        return line
    if not b.check(f"{label}: run starts", started):
        return
    b.check(f"{label}: dpms reads Off after {IDLE_BLANK_S} s without input", lambda: dpms_is(b, "Off", IDLE_BLANK_S + 10))

    def no_fallback():
        said = [l for l in b.console.since(since) if l.startswith("PL-RUN patternlock: cannot switch")]
        if said:
            raise Failure(f"run fell back to black frames: {said[0]}")
    b.check(f"{label}: the driver switched the output off (no black-frame fallback)", no_fallback)

    # The right pattern onto the dark screen: its first touch only wakes it.
    mark = b.console.mark()
    b.console.shell(f"{INJECT} {CAPTURES}/{RIGHT_CAPTURE}.yaml >/dev/null & echo $! >/tmp/pl-inject.pid", b.within(10))
    b.check(f"{label}: the injected touch switches the output on (dpms reads On)", lambda: dpms_is(b, "On", 10))
    b.check(f"{label}: the idle picture is back after waking", lambda: b.picture("idle", IDLE_BLANK_S - 0.2))

    def not_judged():
        status = b.console.shell("while kill -0 $(cat /tmp/pl-inject.pid) 2>/dev/null; do sleep 0.1; done", b.within(20))
        if status != 0:
            raise Failure(f"waiting for inject ended with status {status}")
        time.sleep(0.5)
        said = b.run_answers(mark)
        if said:
            raise Failure(f"the waking gesture was used: {said}")
        return "no result line, no unlock"
    b.check(f"{label}: the waking touch does nothing else ({RIGHT_CAPTURE} is not judged)", not_judged)
    b.check(f"{label}: dpms reads Off again after {IDLE_BLANK_S} s", lambda: dpms_is(b, "Off", IDLE_BLANK_S + 10))

    # SIGTERM while the output is off: the CRTC and the console come back.
    b.stop_run()
    b.check(f"{label}: SIGTERM with the display off: run says it restored display and console",
            lambda: b.run_line(since, "patternlock: stopped by signal 15; display and console restored", 10))
    b.check(f"{label}: run exits 1", lambda: b.run_line(since, "exit 1", 5, "'exit 1'"))
    b.check(f"{label}: dpms reads On after the exit", lambda: dpms_is(b, "On", 5))
    b.check(f"{label}: the VT is back in text mode after the exit", b.text_mode)


def dpms_is(b, state, within):
    """Whether run's connector reads `state` in its dpms file within `within` s (polled
    in the guest, so the answer does not wait on the serial console)."""
    # Bounded by the guest's uptime (whole seconds, rounded up): a loop count would
    # not be, as each pass takes a varying time under TCG.
    status = b.console.shell(
        f"end=$(( $(cut -d. -f1 /proc/uptime) + {int(within) + 1} )); "
        f"until {CONNECTED_DPMS} | grep -qx {state}; do [ $(cut -d. -f1 /proc/uptime) -ge $end ] && break; sleep 0.1; done; "
        f"{CONNECTED_DPMS} | grep -qx {state}", b.within(within + 15))
    if status != 0:
        raise Failure(f"dpms did not read {state} within {within} s")
