"""Steps 1 to 6: the first boot and `patternlock run` with an injected touchscreen, the
tablet, the right pattern, a rotated panel and SIGTERM."""
import re
import time

from lib.checks import expect
from lib.layout import STEP_SECONDS

from .common import PATTERN, PAUSE_AFTER, RIGHT_CAPTURE, ROTATED_CAPTURE, TABLET_DOTS


def first_run(b):
    """1. The first boot; `run --pattern PATTERN --timing --feedback-ms F` and its idle picture."""
    b.ok(b.boot())
    inputs = [l for l in b.console.since(0) if l.startswith("PL-INPUT ")]
    b.check("no touchscreen before run starts (the injected one is added after)",
            lambda: expect(not any("ID_INPUT_TOUCHSCREEN" in l for l in inputs), f"{inputs}"))
    # Steps 1-4: one run, three inputs, unlocked by the last.
    since = b.start_run(f"--pattern {PATTERN} --timing --feedback-ms {b.feedback}")
    b.check("run starts and flips its first frame", lambda: b.run_line(since, "timing: start-to-first-flip-us=", 30))
    b.check("idle picture", lambda: b.picture("idle", 5))


def injected_touchscreen(b):
    """2. A uinput touchscreen made after run started (`inject z-1235789.yaml`): the JSON
    line and the red verdict; then the grid clears."""
    mark = b.inject("z-1235789")
    want = '{"dots":[1,2,3,5,7,8,9],"result":"complete","match":false}'
    if b.check("injected touchscreen (uinput, added after start) reaches run: z-1235789",
               lambda: b.run_line(mark, want, 20, want)):
        b.check("wrong-pattern verdict of z-1235789", lambda: b.picture("z-verdict", b.feedback / 1000 - 0.5))
        b.check("the attempt's finger-to-screen line: input to flip, median and p99 over the flips so far",
                lambda: latency_line(b.run_line(mark, "patternlock: input to flip: median ", 10)))
    b.check("grid clears after the verdict", lambda: b.picture("idle", b.feedback / 1000 + 3))


def latency_line(line):
    """The figures of run's `input to flip` line, which must read as such."""
    match = re.fullmatch(r"patternlock: input to flip: median (\d+\.\d) ms, p99 (\d+\.\d) ms over the last (\d+) flips?", line.strip())
    expect(match is not None, f"not the latency line's shape: {line!r}")
    median, p99, flips = float(match.group(1)), float(match.group(2)), int(match.group(3))
    expect(0 < flips <= 256 and median <= p99, f"figures that cannot be: {line!r}")
    return f"median {median} ms, p99 {p99} ms over {flips} flips"


def tablet_drag(b):
    """3. The tablet: hover to 4, press, drag 3, 5, pause between 5 and 9 (the mid-gesture
    picture), then 9, 2 and release: the JSON line and the red verdict; the grid clears."""
    mark = b.console.mark()
    for index, (x, y, down) in enumerate(b.tablet_steps):
        b.tablet(x, y, down)
        if index == b.pause_step:
            held = "-".join(str(d) for d in TABLET_DOTS[:PAUSE_AFTER + 1])
            b.check(f"tablet mid-gesture {held} with the button held at ({x}, {y})", lambda: b.picture("tablet-mid", 5))
        time.sleep(STEP_SECONDS)
    want = '{"dots":[%s],"result":"complete","match":false}' % ",".join(str(d) for d in TABLET_DOTS)
    drawn = "-".join(str(d) for d in TABLET_DOTS)
    if b.check(f"tablet drag {drawn} reported as wrong", lambda: b.run_line(mark, want, 10, want)):
        b.check("wrong-pattern verdict of the tablet drag", lambda: b.picture("tablet-verdict", b.feedback / 1000 - 0.5))
    b.check("grid clears after the tablet verdict", lambda: b.picture("idle", b.feedback / 1000 + 3))


def right_pattern(b):
    """4. `inject strong-25943.yaml`: match, the accepted picture, `unlocked`, exit 0.
    Before it, run's peak RSS so far (three patterns and their pictures) is noted."""
    b.note_peak_rss(f"run on {b.layout.width}x{b.layout.height} XRGB8888 after two wrong patterns, before the right one")
    mark = b.inject(RIGHT_CAPTURE)
    want = '{"dots":[%s],"result":"complete","match":true}' % PATTERN.replace("-", ",")
    if b.check(f"{RIGHT_CAPTURE} matches", lambda: b.run_line(mark, want, 20, want)):
        b.check(f"accepted picture of {RIGHT_CAPTURE}", lambda: b.picture("right-accepted", b.feedback / 1000 - 0.5))
    b.check("run prints 'unlocked' after the verdict", lambda: b.run_line(mark, "unlocked", b.feedback / 1000 + 5))
    b.check("run exits 0 after unlocking", lambda: b.run_line(mark, "exit 0", 5, "'exit 0'"))
    b.collect_timings()  # of the run step 1 started


def rotated(b):
    """5. `run --rotate 90 --pattern PATTERN`: the idle picture and rotated-90-25943 unlocking."""
    since = b.start_run(f"--rotate 90 --pattern {PATTERN} --timing --feedback-ms {b.feedback}")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)
    b.check("idle picture turned 90 degrees", lambda: b.picture("rotated-idle", 5))
    mark = b.inject(ROTATED_CAPTURE)
    want = '{"dots":[%s],"result":"complete","match":true}' % PATTERN.replace("-", ",")
    if b.check(f"{ROTATED_CAPTURE} under --rotate 90 matches", lambda: b.run_line(mark, want, 20, want)):
        b.check("accepted picture turned 90 degrees", lambda: b.picture("rotated-accepted", b.feedback / 1000 - 0.5))
    b.check("rotated run unlocks and exits 0", lambda: b.run_line(mark, "exit 0", b.feedback / 1000 + 5, "'exit 0'"))
    b.collect_timings()


def sigterm(b):
    """6. run stopped by SIGTERM: its message, exit 1, and the VT drawing text again."""
    since = b.start_run(f"--pattern {PATTERN} --timing")
    b.run_line(since, "timing: start-to-first-flip-us=", 30)
    b.check("idle picture before SIGTERM", lambda: b.picture("idle", 5))
    b.stop_run()
    b.check("SIGTERM: run says it restored display and console",
            lambda: b.run_line(since, "patternlock: stopped by signal 15; display and console restored", 10))
    # Never 0 on a kill: a unit that treats success as "unlocked" must not open.
    b.check("SIGTERM: run exits 1 (not unlocked)", lambda: b.run_line(since, "exit 1", 5, "'exit 1'"))
    b.collect_timings()
    b.check("SIGTERM: the VT is back in text mode", b.text_mode)
