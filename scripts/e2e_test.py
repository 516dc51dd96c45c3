#!/usr/bin/env python3
"""The end-to-end test of `patternlock run` on the emulated aarch64 board (stdlib only).

Usage: e2e_test.py --references DIR --work DIR --disk FILE [--feedback-ms MS] [--timeout S] [--log FILE]
       e2e_test.py --write-tablet-captures DIR TEMPLATE.yaml   (the tablet drag's captures)

Boots the QEMU image (scripts/qemu-run --headless --mode shell --disk FILE) and drives the guest's
busybox shell over the serial console, the display and the tablet over QMP:

  1. `patternlock run --pattern 1-2-3-6 --timing --feedback-ms F`; its idle picture;
  2. `patternlock inject z-1235789.yaml` (a uinput touchscreen created after run
     started: real kernel, udev, libinput): the JSON line and the red verdict;
  3. a wrong pattern 7-8-9-6 dragged with the virtio tablet (QMP input-send-event),
     paused mid-gesture, then released: both pictures, the JSON line;
  4. `patternlock inject l-shape-1236.yaml`: match, the accepted picture, `unlocked`,
     exit status 0;
  5. `run --rotate 90 --pattern 1-4-7-8`: idle picture and rotated-90-1478 unlocking;
  6. `run` stopped by SIGTERM: its message, its end, and the VT drawing text again
     (fbcon draws only in KD_TEXT, so text written after the exit must appear).
  7. idle blanking switches the display off, on the atomic path and then again with
     PATTERNLOCK_KMS_LEGACY=1: `run --pattern 1-2-3-6 --idle-blank-s 2`; the run's
     connector's /sys/class/drm/card0-*/dpms reads Off, with no fallback message;
     l-shape-1236 injected onto the dark screen: dpms reads On, the idle picture is
     back, and the (right) pattern is neither judged nor unlocks (the waking touch does
     nothing else); Off again after 2 s, then SIGTERM with the display off: dpms On and
     the VT drawing text again.
  8. the Vault (no --pattern), in /var/lib/patternlock on the state disk (--disk: ext4 on
     virtio-blk, mounted by init): `set-pattern` stores 1-2-3-6 (a cheap Argon2id);
     `run --exec /bin/sh -c 'echo PL-EXEC-RAN'` and l-shape-1236: `{"result":"unlocked"}`,
     the exec'd command's line, exit 0;
  9. four distinct wrong patterns: failures 1..4, the 2nd from `patternlock check` on the
     console while run is up (one state directory, two processes: run's next failure
     must be 3, not 2); the moment run shows the 4th, QEMU is
     killed (a power cut: no sync, no unmount) and the board boots again from the same
     disk; the 5th wrong capture is failure 5 with retry_in_s 60 (the counter was on the
     disk before the result was shown); the countdown on screen, picture for picture the
     headless `replay --state-dir --dump` of a lockout (REFERENCES/lockout), from 1:00
     and ticking; the right pattern injected during the lockout is not judged at all;
 10. run restarted (SIGTERM, then run again) with the same state: the countdown is on
     screen at once and starts at 1:00 again (restarted in full, not the old remainder);
 11. a power cut during the lockout and a third boot: run is locked out at once, and the
     countdown again starts at 1:00;
 12. `reset-attempts` (then `check` unlocks); the state disk remounted read-only under a
     running `run`: the right pattern is not judged (no result line, no unlock: the
     failure could not be counted first) and run says so; remounted read-write, run
     retries the write by itself and then unlocks with the right pattern;
     the state directory removed, a power cut,
     and a fourth boot in `run` mode: init starts `patternlock run --enroll-first` itself
     (as the Raspberry Pi's unit starts run); the tablet draws 1-2-3-6 twice (stored, no
     unlock), then once more: `{"result":"unlocked"}`, exit 0.

Each picture is a QMP screendump compared pixel for pixel with the headless render of
the same input (REFERENCES/*.png, written by scripts/test-e2e with the guest's own
binary). A verdict stays F ms, so the screendump is retried until it matches or the
verdict ends; a mismatch names the first differing pixel and keeps both files in WORK.
The `timing:` figures are printed, not judged. Every wait is bounded by --timeout.
Prints "ok"/"FAIL" per check and ends with "e2e: N passed, N failed".
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import pngdiff  # noqa: E402
from qemu_test import DISPLAY, QMP, Console as ConsoleLines, Failure, shut_down  # noqa: E402

WIDTH, HEIGHT = 800, 480
CAPTURES = "/usr/share/patternlock/captures"
# run takes the DPI from the display's reported size, replay has none: both get this one.
DPI = "--dpi 96"
# inject waits this long for udev to tag its device and libinput to open it (TCG is slow).
INJECT = "patternlock inject --wait 3000"
# The Vault steps: the default state dir on the state disk, a cheap hash (TCG is slow), and five
# distinct wrong captures (a repeated wrong pattern would not count again).
STATE = "/var/lib/patternlock"
CHEAP_HASH = "--argon-memory-mib 8 --argon-passes 1"
WRONG_CAPTURES = ["z-1235789", "fast-swipe-1-3-9", "single-touch-14789", "two-fingers", "two-gestures"]
LOCKOUT_S = 60
# Where the grid begins on the 800x480 landscape panel (the prompt is left of it): the
# countdown pictures are the lockout dump's last frames with this part idle.
GRID_LEFT = 370
# Idle blanking: the idle time, and the power state of the connector run drives (the
# connected one; a disconnected connector always reads Off).
IDLE_BLANK_S = 2
CONNECTED_DPMS = ("for c in /sys/class/drm/card0-*; do [ \"$(cat $c/status)\" = connected ] && cat $c/dpms; done")


# The tablet drag, in panel pixels: (x, y, button) with button True (press), False
# (release) or None (move only). The QMP events and the reference capture both come
# from this list; PAUSE_STEP is where the screendump is taken mid-gesture.
TABLET_STEPS = [(416, 384, None), (416, 384, True), (560, 384, None), (704, 384, None), (700, 315, None),
                (704, 240, None), (704, 240, False)]
PAUSE_STEP = 4
# The right pattern 1-2-3-6 with the tablet, for the boot straight into the lock.
UNLOCK_STEPS = [(416, 96, None), (416, 96, True), (560, 96, None), (704, 96, None), (704, 240, None), (704, 240, False)]
STEP_SECONDS = 0.15


def tablet_value(pixels, size):
    """The axis value (0..32767) that libinput maps back to `pixels` (value * size / 32768)."""
    return pixels * 32768 // size


def write_tablet_capture(out, steps, template):
    """A `libinput record` capture of `steps` on QEMU's virtio tablet: the device block of
    `template` (the shipped tablet capture) and one evdev frame per step, changed values only."""
    with open(template, encoding="utf-8") as f:
        header = f.read().split("  events:\n")[0]
    lines = [header + "  events:\n"]
    x = y = button = None
    for index, (px, py, down) in enumerate(steps):
        usec = index * round(STEP_SECONDS * 1_000_000)
        sec, usec = divmod(usec, 1_000_000)
        rows = []
        vx, vy = tablet_value(px, WIDTH), tablet_value(py, HEIGHT)
        if vx != x:
            rows.append((3, 0, vx))
        if vy != y:
            rows.append((3, 1, vy))
        if down is not None and down != button:
            rows.append((1, 272, 1 if down else 0))
        x, y, button = vx, vy, (down if down is not None else button)
        lines.append("  - evdev:\n")
        for kind, code, value in rows + [(0, 0, 0)]:
            lines.append(f"    - [{sec:3d}, {usec:6d}, {kind:3d}, {code:3d}, {value:7d}]\n")
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)


def decode_png_rgb(path):
    """(width, height, RGB bytes) of an 8-bit RGB or RGBA PNG (what the replay writes)."""
    try:
        return pngdiff.decode_rgb(path)
    except (OSError, ValueError, zlib.error) as error:
        raise Failure(f"cannot decode {path}: {error}")


def decode_ppm(path):
    """(width, height, RGB bytes) of QEMU's binary PPM screendump."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise Failure(f"{path}: not a binary 8-bit PPM")
    return int(fields[1]), int(fields[2]), data[pos + 1:]


def first_difference(a, b, width):
    """'N pixels differ, first at (x, y): expected #rrggbb, got #rrggbb'."""
    count, first = 0, None
    for i in range(0, min(len(a), len(b)), 3):
        if a[i:i + 3] != b[i:i + 3]:
            count += 1
            if first is None:
                first = i // 3
    if first is None:
        return "sizes differ"
    x, y = first % width, first // width
    return f"{count} pixels differ, first at ({x}, {y}): expected #{a[first * 3:first * 3 + 3].hex()}, got #{b[first * 3:first * 3 + 3].hex()}"


def lit_pixels(rgb):
    """Pixels that are not the darkest colour (text on the console)."""
    darkest = min(rgb[i:i + 3] for i in range(0, len(rgb), 3 * 97))
    return sum(1 for i in range(0, len(rgb), 3) if rgb[i:i + 3] != darkest)


def region(rgb, box, width=WIDTH):
    """The bytes of box (x0, y0, x1, y1), row after row."""
    x0, y0, x1, y1 = box
    return b"".join(rgb[(y * width + x0) * 3:(y * width + x1) * 3] for y in range(y0, y1))


class Console(ConsoleLines):
    """The guest's serial console: lines read from QEMU's stdout (qemu_test's reader),
    commands written to its stdin."""

    def __init__(self, qemu, log):
        self.qemu = qemu
        self.serial = 0
        super().__init__(qemu.stdout, log)

    def send(self, text):
        self.qemu.stdin.write(text.encode() + b"\n")
        self.qemu.stdin.flush()

    def shell(self, command, deadline):
        """Runs a shell command in the guest; returns its exit status."""
        self.serial += 1
        token = f"PL-E2E-RC {self.serial} "
        since = self.mark()
        # printf builds the marker, so the shell's echo of the command never matches it.
        self.send(f"{command}; printf 'PL-%s %s %s\\n' E2E-RC {self.serial} $?")
        line = self.wait(lambda l: l.startswith(token), since, deadline, f"the end of '{command}'")
        return int(line.split()[-1])


def expect(condition, message):
    """For one-line checks: a Failure with `message` unless `condition` holds."""
    if not condition:
        raise Failure(message)


def expect_status(status, want):
    """For checks of a command's exit status."""
    expect(status == want, f"exit status {status}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--write-tablet-captures":
        # scripts/test-e2e: the whole drag, and the drag up to the pause.
        out, template = sys.argv[2], sys.argv[3]
        write_tablet_capture(os.path.join(out, "tablet-7896.yaml"), TABLET_STEPS, template)
        write_tablet_capture(os.path.join(out, "tablet-789-held.yaml"), TABLET_STEPS[:PAUSE_STEP + 1], template)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--references", required=True, help="headless renders (PNG) from scripts/test-e2e")
    parser.add_argument("--work", required=True, help="where screendumps go")
    parser.add_argument("--feedback-ms", type=int, default=3000)
    parser.add_argument("--timeout", type=float, default=240.0)
    parser.add_argument("--log", default=".build/e2e/console.log")
    parser.add_argument("--disk", required=True, help="the state disk image (made on the first boot if missing)")
    args = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    start = time.monotonic()
    deadline = start + args.timeout
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    qmp_dir = tempfile.mkdtemp(prefix="patternlock-e2e.")
    qmp_path = os.path.join(qmp_dir, "qmp.sock")
    os.makedirs(os.path.dirname(os.path.abspath(args.log)), exist_ok=True)
    log = open(args.log, "w", encoding="utf-8")
    disk = os.path.abspath(args.disk)
    qemu = console = qmp = None
    boots = []
    results = {"passed": 0, "failed": 0}
    timings = []
    references = {}

    def boot(mode="shell"):
        """Starts the board with the state disk and waits for the guest's shell (or, in
        `run` mode, for the lock screen init starts)."""
        nonlocal qemu, console, qmp
        boots.append(time.monotonic())
        log.write(f"==== boot {len(boots)} ====\n")
        qemu = subprocess.Popen(
            [os.path.join(root, "scripts", "qemu-run"), "--headless", "--mode", mode, "--qmp", qmp_path, "--disk", disk],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        console = Console(qemu, log)
        qmp = QMP(qmp_path, min(deadline, time.monotonic() + 20))
        if mode == "run":
            console.wait(lambda l: l.startswith("patternlock: showing the lock on"), 0, deadline, "the lock screen init starts")
            return f"boot {len(boots)}: the lock is on screen {time.monotonic() - boots[-1]:.1f} s after power-on"
        console.wait(lambda l: l.startswith("PL-SHELL"), 0, deadline, "PL-SHELL (the guest's shell)")
        # A plain read-eval loop instead of ash's line editor (which queries the cursor
        # position and garbles input sent while it waits); background jobs and markers work.
        console.send("stty -echo; exec sh -c 'while IFS= read -r line; do eval \"$line\"; done'")
        return f"boot {len(boots)}: guest shell up after {time.monotonic() - boots[-1]:.1f} s"

    def power_cut():
        """Kills QEMU: no shutdown, no sync, no unmount; only what reached the disk stays."""
        nonlocal qmp
        qemu.kill()
        qemu.wait()
        qmp.close()
        qmp = None

    def ok(message):
        results["passed"] += 1
        print("ok   " + message, flush=True)

    def fail(message):
        results["failed"] += 1
        print("FAIL " + message, flush=True)

    def check(name, body):
        """Runs one check; a Failure fails it and the test goes on."""
        try:
            detail = body()
            ok(name + (f": {detail}" if detail else ""))
            return True
        except Failure as failure:
            fail(f"{name}: {failure}")
            return False

    def reference(name):
        if name not in references:
            references[name] = decode_png_rgb(os.path.join(args.references, name + ".png"))
        return references[name]

    def screendump(name):
        path = os.path.join(work, name + ".ppm")
        qmp.execute("screendump", filename=path, device=DISPLAY)
        return decode_ppm(path)

    def picture(name, window):
        """Screendumps until the display shows reference `name` (within `window` s)."""
        width, height, want = reference(name)
        until = min(deadline, time.monotonic() + window)
        tries = 0
        while True:
            tries += 1
            got_w, got_h, got = screendump(name + ".actual")
            if (got_w, got_h) != (width, height):
                raise Failure(f"screendump is {got_w}x{got_h}, the reference {width}x{height}")
            if got == want:
                os.remove(os.path.join(work, name + ".actual.ppm"))
                return f"screendump equals the headless render {name}.png ({tries} screendump{'s' if tries > 1 else ''})"
            if time.monotonic() > until:
                raise Failure(f"screendump {work}/{name}.actual.ppm is not {args.references}/{name}.png: {first_difference(want, got, width)}")
            time.sleep(0.1)

    def tablet(x_pixels, y_pixels, down=None):
        """Moves the tablet to a panel pixel, pressing or releasing the left button."""
        events = [
            {"type": "abs", "data": {"axis": "x", "value": tablet_value(x_pixels, WIDTH)}},
            {"type": "abs", "data": {"axis": "y", "value": tablet_value(y_pixels, HEIGHT)}},
        ]
        if down is not None:
            events.append({"type": "btn", "data": {"button": "left", "down": down}})
        qmp.execute("input-send-event", device=DISPLAY, events=events)

    def start_run(options, env=""):
        """Starts `patternlock run` in the background, its lines prefixed PL-RUN; `env`
        is put before the command (`NAME=value `)."""
        since = console.mark()
        console.send(f"({env}patternlock run {DPI} {options}; echo \"exit $?\") 2>&1 | while read -r l; do echo \"PL-RUN $l\"; done &")
        return since

    def run_answers(since):
        """What run said about a pattern since `since`: result lines, unlocked, its exit."""
        with console.changed:
            return [l for l in console.lines[since:] if l.startswith(("PL-RUN {", "PL-RUN unlocked", "PL-RUN exit"))]

    def run_line(since, text, within, what=None):
        line = console.wait(lambda l: l.startswith("PL-RUN " + text), since, min(deadline, time.monotonic() + within), what or f"'{text}' from run")
        return line[len("PL-RUN "):]

    def collect_timings(since):
        with console.changed:
            lines = [l[len("PL-RUN timing: "):] for l in console.lines[since:] if l.startswith("PL-RUN timing: ")]
        starts = [int(l.split("=")[1]) for l in lines if l.startswith("start-to-first-flip-us=")]
        flips = sorted(int(l.split("=")[1]) for l in lines if l.startswith("input-to-flip-us="))
        figure = f"start to first flip {starts[0] / 1000:.0f} ms" if starts else "no first flip"
        if flips:
            figure += (f", input to flip median {flips[len(flips) // 2] / 1000:.1f} ms, "
                       f"max {flips[-1] / 1000:.1f} ms over {len(flips)} flips")
        timings.append(figure)

    def run_json(since, within, what, predicate=lambda obj: True):
        """The next JSON object run printed after `since` that satisfies predicate."""
        def matches(line):
            if not line.startswith("PL-RUN {"):
                return False
            try:
                return predicate(json.loads(line[len("PL-RUN "):]))
            except ValueError:
                return False
        line = console.wait(matches, since, min(deadline, time.monotonic() + within), what)
        return json.loads(line[len("PL-RUN "):])

    def inject(capture):
        mark = console.mark()
        console.send(f"{INJECT} {CAPTURES}/{capture}.yaml >/dev/null &")
        return mark

    def countdown():
        """The lockout's countdown pictures as `replay --state-dir --dump` rendered them
        (REFERENCES/lockout): the dump's last frames, those with the idle grid, one a
        second from the lockout's first (1:00)."""
        if "countdown" not in references:
            directory = os.path.join(args.references, "lockout")
            grid = (GRID_LEFT, 0, WIDTH, HEIGHT)
            idle_grid = region(reference("idle")[2], grid)
            frames = []
            for file in sorted(os.listdir(directory), reverse=True):
                _, _, rgb = decode_png_rgb(os.path.join(directory, file))
                if region(rgb, grid) != idle_grid:
                    break
                frames.insert(0, rgb)
            if len(frames) < 10:
                raise Failure(f"only {len(frames)} countdown pictures in {directory} (expected the lockout's first 10 s or more)")
            references["countdown"] = frames
        return references["countdown"]

    def countdown_text(index):
        left = LOCKOUT_S - index
        return f"{left // 60}:{left % 60:02d}"

    def countdown_on_screen(name):
        """The screen shows one of the countdown pictures exactly, then a later one within
        2.5 s (it ticks). Returns the index of the first (0: 1:00, the lockout's first second)."""
        frames = countdown()
        until = min(deadline, time.monotonic() + 5)
        while True:
            _, _, shot = screendump(name)
            if shot in frames:
                first = frames.index(shot)
                break
            if time.monotonic() > until:
                raise Failure(f"screendump {work}/{name}.ppm is none of the {len(frames)} countdown pictures "
                              f"({args.references}/lockout); against 1:00: {first_difference(frames[0], shot, WIDTH)}")
            time.sleep(0.2)
        until = min(deadline, time.monotonic() + 2.5)
        while True:
            time.sleep(0.25)
            _, _, later = screendump(name + "-later")
            if later in frames and frames.index(later) > first:
                break
            if later not in frames:
                raise Failure(f"the screen left the countdown: {work}/{name}-later.ppm is none of its pictures")
            if time.monotonic() > until:
                raise Failure(f"the countdown stayed at {countdown_text(first)} for 2.5 s; see {work}/{name}.ppm")
        for file in (name, name + "-later"):
            os.remove(os.path.join(work, file + ".ppm"))
        return first

    def vault_steps():
        # Decoded now: later the countdown is looked at within its first seconds.
        if not check("the headless countdown pictures load", lambda: f"{len(countdown())} pictures, 1:00 to {countdown_text(len(countdown()) - 1)}"):
            return
        shell_deadline = min(deadline, time.monotonic() + 30)
        status = console.shell(f"echo 1-2-3-6 | patternlock set-pattern {CHEAP_HASH} >/dev/null", shell_deadline)
        if not check(f"set-pattern stores 1-2-3-6 in {STATE} on the state disk",
                     lambda: expect_status(status, 0)):
            return

        # 8: the right pattern unlocks and run hands off to --exec.
        since = start_run("--timing --feedback-ms 500 --exec /bin/sh -c 'echo PL-EXEC-RAN'")
        run_line(since, "timing: start-to-first-flip-us=", 30)
        mark = inject("l-shape-1236")
        check("vault: l-shape-1236 unlocks", lambda: run_json(mark, 20, '{"result":"unlocked"}', lambda o: o == {"result": "unlocked"}) and None)
        check("vault: run replaces itself with the --exec command", lambda: run_line(mark, "PL-EXEC-RAN", 10, "the --exec marker"))
        check("vault: the --exec command's status is run's (exit 0)", lambda: run_line(mark, "exit 0", 5, "'exit 0'"))

        def wrong(count, capture):
            """Injects a distinct wrong pattern and checks that run counted it as failure `count`."""
            mark = inject(capture)
            want = f"failures {count}"

            def counted():
                got = run_json(mark, 20, f"a result with {want}", lambda o: o.get("failures") == count)
                lockout = got.get("retry_in_s")
                if got.get("result") != "wrong" or lockout != (LOCKOUT_S if count == len(WRONG_CAPTURES) else None):
                    raise Failure(f"got {json.dumps(got)}")
                return json.dumps(got)
            return check(f"vault: wrong pattern {capture} counts ({want})", counted)

        def rebooted(why):
            """A power cut now, then the board boots again from the same state disk."""
            power_cut()
            if not check(f"{why}: the board boots again", boot):
                return False
            state_line = console.wait(lambda l: l.startswith("PL-STATE-DISK"), 0, deadline, "the state disk's mount line")

            def keeps_state():
                if "patternlock" not in state_line.split(":", 1)[1].split():
                    raise Failure(f"no patternlock directory on the disk: {state_line}")
                return state_line
            return check(f"{why}: the state disk is mounted and keeps {STATE}", keeps_state)

        # 9: four distinct wrong patterns count 1..4; the power goes the moment run has
        # shown the 4th (it wrote the counter first, so the next boot must go on from 4).
        since = start_run("--timing --feedback-ms 500")
        run_line(since, "timing: start-to-first-flip-us=", 30)
        for count, capture in enumerate(WRONG_CAPTURES[:-1], start=1):
            if count == 2:
                # Another process on the same state directory while run is up: run must
                # count on from check's failure (it re-reads the record under the lock).
                status = console.shell("echo 9-8-7-4 | patternlock check >/dev/null", min(deadline, time.monotonic() + 30))
                if not check("vault: check on run's state directory counts failure 2 (exit 3)",
                             lambda: expect_status(status, 3)):
                    return
                continue
            if not wrong(count, capture):
                return
            if count < len(WRONG_CAPTURES) - 1:
                time.sleep(1.0)  # the verdict (500 ms) ends before the next gesture starts
        if not rebooted("power cut right after the 4th failure was shown"):
            return

        # The 5th failure after the reboot is number 5, not 1: the counter survived.
        since = start_run("--timing --feedback-ms 500")
        run_line(since, "timing: start-to-first-flip-us=", 30)
        if not wrong(len(WRONG_CAPTURES), WRONG_CAPTURES[-1]):
            return
        locked_at = time.monotonic()
        time.sleep(1.0)  # the verdict (500 ms) gives way to the countdown
        def counting_down():
            first = countdown_on_screen("lockout")
            if first > 3:
                raise Failure(f"the countdown showed {countdown_text(first)} {time.monotonic() - locked_at:.0f} s after the lockout began")
            return f"the headless countdown pictures exactly, from {countdown_text(first)}, ticking"
        check("vault: the lockout countdown is on screen after the 5th failure", counting_down)

        def refused():
            # During a lockout run does not judge input at all: no result line, no unlock.
            mark = console.mark()
            status = console.shell(f"{INJECT} {CAPTURES}/l-shape-1236.yaml >/dev/null", min(deadline, time.monotonic() + 20))
            if status != 0:
                raise Failure(f"inject exited {status}")
            time.sleep(1.0)
            said = run_answers(mark)
            if said:
                raise Failure(f"run answered during the lockout: {said}")
            _, _, now = screendump("lockout-refused")
            if now not in countdown():
                raise Failure(f"the countdown is gone after the attempt; see {work}/lockout-refused.ppm")
            os.remove(os.path.join(work, "lockout-refused.ppm"))
            return "no result line, no unlock, the countdown stays"
        check("vault: even the right pattern is ignored during the lockout", refused)

        def locked_out_in_full(when):
            """Starts run again and checks that the countdown is on screen at once and
            begins at 1:00 again (restarted in full), not at the old lockout's remainder;
            returns run's console mark."""
            restarted = time.monotonic()
            since = start_run("--timing --feedback-ms 500")
            run_line(since, "timing: start-to-first-flip-us=", 30)

            def full_again():
                first = countdown_on_screen(f"lockout-{when}")
                elapsed = time.monotonic() - locked_at
                if first > 3:
                    raise Failure(f"the countdown after the {when} shows {countdown_text(first)} ({elapsed:.0f} s after the 5th failure, "
                                  f"{time.monotonic() - restarted:.0f} s after the {when}): not restarted in full")
                return f"{countdown_text(first)} {elapsed:.0f} s after the 5th failure (the old lockout would show {countdown_text(min(int(elapsed), LOCKOUT_S))})"
            check(f"vault {when}: locked out at once, the countdown restarted in full", full_again)
            return since

        # 10: a restart of run with the same state keeps the counter: the lockout starts again in full.
        console.shell("kill -TERM $(pidof patternlock)", min(deadline, time.monotonic() + 10))
        run_line(since, "exit 1", 10, "'exit 1' after SIGTERM")
        locked_out_in_full("restart")

        # 11: a power cut during the lockout; after the reboot run is locked out at once, in full.
        if not rebooted("power cut during the lockout"):
            return
        since = locked_out_in_full("reboot")
        console.shell("kill -TERM $(pidof patternlock)", min(deadline, time.monotonic() + 10))
        run_line(since, "exit 1", 10, "'exit 1' after SIGTERM")

        # 12: an administrator clears the lockout; then a device with no pattern at all
        # boots straight into the lock, as a Raspberry Pi does, and enrols first.
        status = console.shell("patternlock reset-attempts >/dev/null", min(deadline, time.monotonic() + 20))
        if not check("reset-attempts (root) clears the lockout",
                     lambda: expect_status(status, 0)):
            return
        status = console.shell("echo 1-2-3-6 | patternlock check >/dev/null", min(deadline, time.monotonic() + 20))
        check("after reset-attempts the right pattern is judged and unlocks (check exits 0)",
              lambda: expect_status(status, 0))
        # A read-only state disk (an SD card after an error): nothing is judged, never an unlock.
        since = start_run("--feedback-ms 500")
        run_line(since, "patternlock: showing the lock", 30)
        status = console.shell("mount -o remount,ro /var/lib", min(deadline, time.monotonic() + 10))
        if not check("the state disk is remounted read-only under run",
                     lambda: expect_status(status, 0)):
            return
        mark = inject("l-shape-1236")
        check("read-only state: run refuses to judge the right pattern and says why",
              lambda: run_line(mark, "patternlock: the attempt was not judged", 20, "the not-judged line"))
        time.sleep(1.0)
        said = run_answers(mark)
        check("read-only state: no result line, no unlock", lambda: expect(not said, f"run said {said}"))
        console.shell("mount -o remount,rw /var/lib", min(deadline, time.monotonic() + 10))
        check("writable again: run retries the write by itself",
              lambda: run_line(mark, "patternlock: the state directory can be written again", 10, "the recovery line"))
        mark = inject("l-shape-1236")
        check("writable again: the right pattern unlocks", lambda: run_json(mark, 20, '{"result":"unlocked"}', lambda o: o == {"result": "unlocked"}) and None)
        run_line(mark, "exit 0", 10, "'exit 0'")

        # sync: a removal still in the page cache would not survive the power cut.
        console.shell(f"rm -r {STATE} && sync", min(deadline, time.monotonic() + 10))
        power_cut()
        if not check("boot into the lock with no pattern set: init starts patternlock run --enroll-first", lambda: boot("run")):
            return
        time.sleep(1.0)  # the first flip follows the start-up line

        def drag(steps):
            for x, y, down in steps:
                tablet(x, y, down)
                time.sleep(STEP_SECONDS)
            time.sleep(1.0)  # the verdict (500 ms) ends before the next gesture starts
        mark = console.mark()
        drag(UNLOCK_STEPS)
        drag(UNLOCK_STEPS)
        check("enrol first: 1-2-3-6 drawn twice with the tablet is stored",
              lambda: console.wait(lambda l: l.startswith(f"pattern set in {STATE}"), mark, min(deadline, time.monotonic() + 30), "'pattern set'"))
        with console.changed:
            early = [l for l in console.lines[mark:] if l.startswith(("{", "PL-DONE"))]
        check("enrol first: the enrolment itself neither unlocks nor ends run",
              lambda: expect(not early, f"run said {early}"))
        time.sleep(1.0)
        mark = console.mark()
        drag(UNLOCK_STEPS)
        check("enrol first: the lock then runs with the new pattern, and 1-2-3-6 unlocks",
              lambda: console.wait(lambda l: l == '{"result":"unlocked"}', mark, min(deadline, time.monotonic() + 20), "the unlocked line"))
        check("enrol first: run exits 0 and init goes on",
              lambda: console.wait(lambda l: l.startswith("PL-DONE run exited with status 0"), mark, min(deadline, time.monotonic() + 10), "PL-DONE with status 0"))

    feedback = args.feedback_ms
    try:
        ok(boot())
        inputs = [l for l in console.lines if l.startswith("PL-INPUT ")]
        check("no touchscreen before run starts (the injected one is added after)",
              lambda: expect(not any("ID_INPUT_TOUCHSCREEN" in l for l in inputs), f"{inputs}"))

        # 1-4: one run, three inputs, unlocked by the last.
        since = start_run(f"--pattern 1-2-3-6 --timing --feedback-ms {feedback}")
        check("run starts and flips its first frame", lambda: run_line(since, "timing: start-to-first-flip-us=", 30))
        check("idle picture", lambda: picture("idle", 5))

        mark = console.mark()
        console.send(f"{INJECT} {CAPTURES}/z-1235789.yaml >/dev/null &")
        want = '{"dots":[1,2,3,5,7,8,9],"result":"complete","match":false}'
        if check("injected touchscreen (uinput, added after start) reaches run: z-1235789",
                 lambda: run_line(mark, want, 20, want)):
            check("wrong-pattern verdict of z-1235789", lambda: picture("z-verdict", feedback / 1000 - 0.5))
        check("grid clears after the verdict", lambda: picture("idle", feedback / 1000 + 3))

        # The tablet: hover to 7, press, drag 8, 9, pause between 9 and 6, then 6 and release.
        mark = console.mark()
        for index, (x, y, down) in enumerate(TABLET_STEPS):
            tablet(x, y, down)
            if index == PAUSE_STEP:
                check(f"tablet mid-gesture 7-8-9 with the button held at ({x}, {y})", lambda: picture("tablet-mid", 5))
            time.sleep(STEP_SECONDS)
        want = '{"dots":[7,8,9,6],"result":"complete","match":false}'
        if check("tablet drag 7-8-9-6 reported as wrong", lambda: run_line(mark, want, 10, want)):
            check("wrong-pattern verdict of the tablet drag", lambda: picture("tablet-verdict", feedback / 1000 - 0.5))
        check("grid clears after the tablet verdict", lambda: picture("idle", feedback / 1000 + 3))

        mark = console.mark()
        console.send(f"{INJECT} {CAPTURES}/l-shape-1236.yaml >/dev/null &")
        want = '{"dots":[1,2,3,6],"result":"complete","match":true}'
        if check("l-shape-1236 matches", lambda: run_line(mark, want, 20, want)):
            check("accepted picture of l-shape-1236", lambda: picture("l-shape-accepted", feedback / 1000 - 0.5))
        check("run prints 'unlocked' after the verdict", lambda: run_line(mark, "unlocked", feedback / 1000 + 5))
        check("run exits 0 after unlocking", lambda: run_line(mark, "exit 0", 5, "'exit 0'"))
        collect_timings(since)

        # 5: rotation.
        since = start_run(f"--rotate 90 --pattern 1-4-7-8 --timing --feedback-ms {feedback}")
        run_line(since, "timing: start-to-first-flip-us=", 30)
        check("idle picture turned 90 degrees", lambda: picture("rotated-idle", 5))
        mark = console.mark()
        console.send(f"{INJECT} {CAPTURES}/rotated-90-1478.yaml >/dev/null &")
        want = '{"dots":[1,4,7,8],"result":"complete","match":true}'
        if check("rotated-90-1478 under --rotate 90 matches", lambda: run_line(mark, want, 20, want)):
            check("accepted picture turned 90 degrees", lambda: picture("rotated-accepted", feedback / 1000 - 0.5))
        check("rotated run unlocks and exits 0", lambda: run_line(mark, "exit 0", feedback / 1000 + 5, "'exit 0'"))
        collect_timings(since)

        # 6: SIGTERM restores the console.
        since = start_run("--pattern 1-2-3-6 --timing")
        run_line(since, "timing: start-to-first-flip-us=", 30)
        check("idle picture before SIGTERM", lambda: picture("idle", 5))
        console.shell("kill -TERM $(pidof patternlock)", min(deadline, time.monotonic() + 10))
        check("SIGTERM: run says it restored display and console",
              lambda: run_line(since, "patternlock: stopped by signal 15; display and console restored", 10))
        # Never 0 on a kill: a unit that treats success as "unlocked" must not open.
        check("SIGTERM: run exits 1 (not unlocked)", lambda: run_line(since, "exit 1", 5, "'exit 1'"))
        collect_timings(since)

        def text_mode():
            shell_deadline = min(deadline, time.monotonic() + 10)
            console.shell("printf '\\033[2J\\033[H' >/dev/tty1", shell_deadline)
            time.sleep(0.5)
            _, _, blank = screendump("console-cleared")
            console.shell("for i in 1 2 3 4 5 6 7 8; do echo \"console text after SIGTERM, line $i\"; done >/dev/tty1", shell_deadline)
            time.sleep(0.5)
            _, _, text = screendump("console-text")
            _, _, idle = reference("idle")
            before, after = lit_pixels(blank), lit_pixels(text)
            if text == idle or after < before + 2000:
                raise Failure(f"text written to tty1 after the exit did not show ({before} lit pixels cleared, {after} with text; "
                              f"the VT stayed in KD_GRAPHICS?); see {work}/console-text.ppm")
            return f"fbcon draws again: {before} lit pixels after clearing, {after} after 8 lines of text"
        check("SIGTERM: the VT is back in text mode", text_mode)

        # 7: idle blanking switches the display off and the waking touch on, on both KMS paths.
        def dpms_is(state, within):
            """Whether run's connector reads `state` in its dpms file within `within` s
            (polled in the guest, so the answer does not wait on the serial console)."""
            # Bounded by the guest's uptime (whole seconds, rounded up): a loop count would
            # not be, as each pass takes a varying time under TCG.
            status = console.shell(
                f"end=$(( $(cut -d. -f1 /proc/uptime) + {int(within) + 1} )); "
                f"until {CONNECTED_DPMS} | grep -qx {state}; do [ $(cut -d. -f1 /proc/uptime) -ge $end ] && break; sleep 0.1; done; "
                f"{CONNECTED_DPMS} | grep -qx {state}", min(deadline, time.monotonic() + within + 15))
            if status != 0:
                raise Failure(f"dpms did not read {state} within {within} s")

        def dpms_steps(path, env):
            label = f"idle blanking ({path})"
            since = start_run(f"--pattern 1-2-3-6 --idle-blank-s {IDLE_BLANK_S} --timing --feedback-ms {feedback}", env)

            def started():
                line = run_line(since, "patternlock: showing the lock on", 30)
                if not line.endswith(f"({path})"):
                    raise Failure(f"run is not on the {path} path: {line}")
                run_line(since, "timing: start-to-first-flip-us=", 30)
                return line
            if not check(f"{label}: run starts", started):
                return
            check(f"{label}: dpms reads Off after {IDLE_BLANK_S} s without input", lambda: dpms_is("Off", IDLE_BLANK_S + 10))

            def no_fallback():
                with console.changed:
                    said = [l for l in console.lines[since:] if l.startswith("PL-RUN patternlock: cannot switch")]
                if said:
                    raise Failure(f"run fell back to black frames: {said[0]}")
            check(f"{label}: the driver switched the output off (no black-frame fallback)", no_fallback)

            # The right pattern onto the dark screen: its first touch only wakes it.
            mark = console.mark()
            console.shell(f"{INJECT} {CAPTURES}/l-shape-1236.yaml >/dev/null & echo $! >/tmp/pl-inject.pid",
                          min(deadline, time.monotonic() + 10))
            check(f"{label}: the injected touch switches the output on (dpms reads On)", lambda: dpms_is("On", 10))
            check(f"{label}: the idle picture is back after waking", lambda: picture("idle", IDLE_BLANK_S - 0.2))

            def not_judged():
                status = console.shell("while kill -0 $(cat /tmp/pl-inject.pid) 2>/dev/null; do sleep 0.1; done",
                                       min(deadline, time.monotonic() + 20))
                if status != 0:
                    raise Failure(f"waiting for inject ended with status {status}")
                time.sleep(0.5)
                said = run_answers(mark)
                if said:
                    raise Failure(f"the waking gesture was used: {said}")
                return "no result line, no unlock"
            check(f"{label}: the waking touch does nothing else (l-shape-1236 is not judged)", not_judged)
            check(f"{label}: dpms reads Off again after {IDLE_BLANK_S} s", lambda: dpms_is("Off", IDLE_BLANK_S + 10))

            # SIGTERM while the output is off: the CRTC and the console come back.
            console.shell("kill -TERM $(pidof patternlock)", min(deadline, time.monotonic() + 10))
            check(f"{label}: SIGTERM with the display off: run says it restored display and console",
                  lambda: run_line(since, "patternlock: stopped by signal 15; display and console restored", 10))
            check(f"{label}: run exits 1", lambda: run_line(since, "exit 1", 5, "'exit 1'"))
            check(f"{label}: dpms reads On after the exit", lambda: dpms_is("On", 5))
            check(f"{label}: the VT is back in text mode after the exit", text_mode)

        dpms_steps("atomic", "")
        dpms_steps("legacy", "PATTERNLOCK_KMS_LEGACY=1 ")

        # 8-11: the Vault (no --pattern): set-pattern, unlock with --exec, the throttle, a restart, reboots.
        vault_steps()

        print("timings (measured under TCG, not judged): " + "; ".join(timings), flush=True)
        if qemu.poll() is None:  # the boot into the lock powers off by itself
            console.send("poweroff -f")
        try:
            qemu.wait(timeout=max(1.0, min(15.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            fail("the guest did not power off")
    except (Failure, OSError) as failure:
        fail(str(failure))
    finally:
        if results["failed"] and console is not None:
            tail = console.lines[-15:]
            print(f"  last console lines (full log: {args.log}):", file=sys.stderr)
            for line in tail:
                print("  | " + line, file=sys.stderr)
        if qemu is not None:
            shut_down(qemu, qmp, log, qmp_path, qmp_dir)
        else:
            log.close()
            os.rmdir(qmp_dir)
    print(f"total {time.monotonic() - start:.1f} s")
    print(f"e2e: {results['passed']} passed, {results['failed']} failed")
    return 0 if results["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
