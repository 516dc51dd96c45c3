"""Step 12: the lockout cleared, a read-only state disk, and a board with no pattern
booting straight into the lock to enrol first."""
import time

from lib.checks import expect, expect_status

from .common import PATTERN, RIGHT_CAPTURE, STATE


def reset_read_only_and_enrol(b):
    """12. An administrator clears the lockout; the state disk goes read-only under run
    and comes back; then a device with no pattern at all boots straight into the lock,
    as a Raspberry Pi does, and enrols first."""
    status = b.console.shell("patternlock reset-attempts >/dev/null", b.within(20))
    b.require("reset-attempts (root) clears the lockout", lambda: expect_status(status, 0))
    status = b.console.shell(f"echo {PATTERN} | patternlock check >/dev/null", b.within(20))
    b.check("after reset-attempts the right pattern is judged and unlocks (check exits 0)", lambda: expect_status(status, 0))
    read_only_state(b)
    enrol_first(b)


def read_only_state(b):
    """A read-only state disk (an SD card after an error): nothing is judged, never an
    unlock; writable again, run retries by itself and unlocks."""
    since = b.start_run("--feedback-ms 500")
    b.run_line(since, "patternlock: showing the lock", 30)
    status = b.console.shell("mount -o remount,ro /var/lib", b.within(10))
    b.require("the state disk is remounted read-only under run", lambda: expect_status(status, 0))
    mark = b.inject(RIGHT_CAPTURE)
    # The audit log's entry comes before the count, so a read-only disk is found there
    # first: either line says the attempt is not judged.
    b.check("read-only state: run refuses to judge the right pattern and says why",
            lambda: b.console.wait(lambda l: l.startswith("PL-RUN patternlock: ") and "not judged" in l, mark,
                                   b.within(20), "a line saying the attempt is not judged")[len("PL-RUN "):])
    time.sleep(1.0)
    said = b.run_answers(mark)
    b.check("read-only state: no result line, no unlock", lambda: expect(not said, f"run said {said}"))
    b.console.shell("mount -o remount,rw /var/lib", b.within(10))
    b.check("writable again: run retries the write by itself",
            lambda: b.run_line(mark, "patternlock: the state directory can be written again", 10, "the recovery line"))
    mark = b.inject(RIGHT_CAPTURE)
    b.check("writable again: the right pattern unlocks", lambda: b.run_json(mark, 20, '{"result":"unlocked"}', lambda o: o == {"result": "unlocked"}) and None)
    b.run_line(mark, "exit 0", 10, "'exit 0'")


def enrol_first(b):
    """The state directory removed, a power cut, and a boot in `run` mode: init starts
    `patternlock run --enroll-first`; the tablet draws the pattern twice (stored, no
    unlock), then once more to unlock."""
    # sync: a removal still in the page cache would not survive the power cut.
    b.console.shell(f"rm -r {STATE} && sync", b.within(10))
    b.power_cut()
    b.require("boot into the lock with no pattern set: init starts patternlock run --enroll-first", lambda: b.boot("run"))
    time.sleep(1.0)  # the first flip follows the start-up line
    mark = b.console.mark()
    b.drag(b.unlock_steps)
    b.drag(b.unlock_steps)
    b.check(f"enrol first: {PATTERN} drawn twice with the tablet is stored",
            lambda: b.console.wait(lambda l: l.startswith(f"pattern set in {STATE}"), mark, b.within(30), "'pattern set'"))
    early = [l for l in b.console.since(mark) if l.startswith(("{", "PL-DONE"))]
    b.check("enrol first: the enrolment itself neither unlocks nor ends run", lambda: expect(not early, f"run said {early}"))
    time.sleep(1.0)
    mark = b.console.mark()
    b.drag(b.unlock_steps)
    b.check(f"enrol first: the lock then runs with the new pattern, and {PATTERN} unlocks",
            lambda: b.console.wait(lambda l: l == '{"result":"unlocked"}', mark, b.within(20), "the unlocked line"))
    b.check("enrol first: run exits 0 and init goes on",
            lambda: b.console.wait(lambda l: l.startswith("PL-DONE run exited with status 0"), mark, b.within(10), "PL-DONE with status 0"))
