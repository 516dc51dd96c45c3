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

Usage: wayland_test.py ROOT PATTERNLOCK VIRTUAL_POINTER WORKDIR
Prints "ok"/"FAIL" lines and ends with "wayland: N passed, N failed"; exit 1 on a failure.
"""
import contextlib
import grp
import json
import os
import pwd
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import pictures  # noqa: E402
from lib.checks import Checks, Failure, Skip, expect  # noqa: E402
from lib.layout import Layout  # noqa: E402

ROOT, PATTERNLOCK, POINTER, WORK = (os.path.abspath(a) for a in sys.argv[1:5])
RUNTIME_IN_ROOT = "/run/wayland-test"
RUNTIME = ROOT + RUNTIME_IN_ROOT
MAGENTA = (255, 0, 255)
# How long a verdict shows, long enough to take its picture.
FEEDBACK_MS = 3000
# The default theme's colour of a wrong pattern.
WRONG_COLOUR = (255, 72, 72)
SUCCESS_COLOUR = (72, 220, 120)
# Android's throttle: the fifth failure in a row starts a 30 s lockout.
LOCKOUT_AFTER = 5
# Five different wrong patterns (a wrong pattern repeated is not counted again).
WRONG_ONES = [[1, 4, 7, 8], [2, 5, 8, 9], [3, 6, 9, 8], [7, 8, 9, 6], [1, 5, 9, 8]]


def is_desktop(colour):
    """swaybg's magenta (the compositor's blending may round it a little)."""
    r, g, b = colour
    return r > 200 and g < 60 and b > 200
# The vault's pattern: README.md's example, which set-pattern accepts (it refuses the
# head of an attacker's order).
PATTERN = [2, 5, 9, 4, 3]
WRONG = [1, 4, 7, 8]
STATE = os.path.join(WORK, "state")
checks = Checks()


def in_root(*command, display="wayland-0", **options):
    """A command run inside the trixie tree, as a client of its compositor."""
    env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}", f"WAYLAND_DISPLAY={display}"]
    return subprocess.run(["chroot", ROOT] + env + list(command), capture_output=True, text=True, timeout=30, **options)


def host_env(display="wayland-0"):
    """The environment of a host process connecting to the tree's compositor."""
    return dict(os.environ, XDG_RUNTIME_DIR=RUNTIME, WAYLAND_DISPLAY=display)


class Compositor:
    """labwc, headless with `outputs` outputs at `scale`, and swaybg's magenta desktop."""

    def __init__(self, outputs=2, scale=1):
        os.makedirs(RUNTIME, mode=0o700, exist_ok=True)
        for name in os.listdir(RUNTIME):
            os.remove(os.path.join(RUNTIME, name))
        env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}",
               "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", f"WLR_HEADLESS_OUTPUTS={outputs}", "WLR_LIBINPUT_NO_DEVICES=1"]
        self.log = open(os.path.join(WORK, "labwc.log"), "a")
        self.process = subprocess.Popen(["chroot", ROOT] + env + ["labwc"], stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.background = None
        try:
            self.start(scale)
        except Failure:
            # A compositor that did not come up whole is not left running.
            self.stop()
            raise

    def start(self, scale):
        deadline = time.monotonic() + 15
        while not os.path.exists(os.path.join(RUNTIME, "wayland-0")):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise Failure(f"labwc did not start (see {self.log.name})")
            time.sleep(0.1)
        self.outputs = self.read_outputs()
        if scale != 1:
            for name in self.outputs:
                result = in_root("wlr-randr", "--output", name, "--scale", str(scale))
                expect(result.returncode == 0, f"wlr-randr --scale {scale}: {result.stderr.strip()}")
            self.outputs = self.read_outputs()
        self.background = subprocess.Popen(
            ["chroot", ROOT, "env", "-i", "PATH=/usr/bin:/bin", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}", "WAYLAND_DISPLAY=wayland-0",
             "swaybg", "-c", "#ff00ff"], stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.wait_for(lambda: all(is_desktop(self.colour_at_centre(o)) for o in self.outputs), "the magenta desktop")

    def read_outputs(self):
        """Output name -> (x, y, logical width, logical height), from wlr-randr."""
        result = in_root("wlr-randr", "--json")
        expect(result.returncode == 0, f"wlr-randr: {result.stderr.strip()}")
        outputs = {}
        for output in json.loads(result.stdout):
            if not output.get("enabled", True):
                continue
            mode = next(m for m in output["modes"] if m.get("current"))
            scale = output.get("scale", 1.0)
            outputs[output["name"]] = (output["position"]["x"], output["position"]["y"],
                                       round(mode["width"] / scale), round(mode["height"] / scale))
        return dict(sorted(outputs.items(), key=lambda item: item[1][0]))

    @property
    def extent(self):
        """The output layout's size in logical units."""
        return (max(x + w for x, _, w, _ in self.outputs.values()), max(y + h for _, y, _, h in self.outputs.values()))

    def picture(self, output):
        """(width, height, RGB bytes) of one output, through wlr-screencopy."""
        inside = f"/tmp/{output}.ppm"
        result = in_root("grim", "-t", "ppm", "-o", output, inside)
        expect(result.returncode == 0, f"grim -o {output}: {result.stderr.strip()}")
        return pictures.decode_ppm(ROOT + inside)

    def colour_at_centre(self, output):
        width, height, rgb = self.picture(output)
        at = ((height // 2) * width + width // 2) * 3
        return tuple(rgb[at:at + 3])

    def wait_for(self, condition, what, seconds=15):
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise Failure(f"no {what} within {seconds} s")
            time.sleep(0.2)

    def stop(self):
        for process in (self.background, self.process):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        self.log.close()


class Lock:
    """One `patternlock session-lock` run on the host against the tree's compositor."""

    def __init__(self, *arguments, display="wayland-0", user=None, env=None):
        self.out = open(os.path.join(WORK, "session-lock.out"), "w+")
        self.err = open(os.path.join(WORK, "session-lock.err"), "w+")
        # As `user` (a name), in no group but its own: the desktop user of a Pi.
        as_user = {"user": user, "group": user if user != "nobody" else "nogroup", "extra_groups": []} if user else {}
        self.process = subprocess.Popen([PATTERNLOCK, "session-lock"] + list(arguments), stdout=self.out, stderr=self.err,
                                        env=env or host_env(display), **as_user)

    def stdout(self):
        self.out.seek(0)
        return self.out.read()

    def stderr(self):
        self.err.seek(0)
        return self.err.read()

    def wait(self, seconds=10):
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def kill(self, sig=signal.SIGKILL):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait()


def frame_at(size):
    """The idle lock screen at `size` (WxH) as the headless render draws it."""
    out = os.path.join(WORK, f"replay-{size}")
    if not os.path.isdir(out):
        capture = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Captures", "l-shape-1236.yaml"))
        subprocess.run([PATTERNLOCK, "replay", capture, "--size", size, "--dump", out], check=True, capture_output=True)
    return pictures.decode_png_rgb(os.path.join(out, "00000.png"))


def verdict_frames(size, dots, feedback_ms):
    """The last pictures the headless render shows for `dots` drawn at `size` (WxH)
    against PATTERN, the verdict held `feedback_ms`: a synthetic capture of the gesture
    replayed."""
    name = "-".join(map(str, dots))
    out = os.path.join(WORK, f"verdict-{name}-{size}")
    capture = os.path.join(WORK, f"verdict-{name}-{size}.yaml")
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "make-capture.py"), "--device", "ft5406", "--size", size, "--path",
                    "-".join(map(str, dots)), "--patternlock", PATTERNLOCK, "-o", capture], check=True, capture_output=True)
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([PATTERNLOCK, "replay", capture, "--size", size, "--feedback-ms", str(feedback_ms), "--pattern",
                    "-".join(map(str, PATTERN)), "--dump", out], check=True, capture_output=True)
    # The verdict is among the last pictures (then the idle lock once it has had its
    # time); decoding every picture of the gesture would take a minute here.
    return list(rendered_from_end(out, 3))


def layout(width, height):
    return Layout.ask([PATTERNLOCK], "--size", f"{width}x{height}")


def drawing_output(compositor):
    """The output the lock is drawn on: the one that shows the idle lock screen (but for
    the cursor, at most a 32x32 box)."""
    for name in compositor.outputs:
        picture = compositor.picture(name)
        want = frame_at(f"{picture[0]}x{picture[1]}")
        if differing_pixels(picture, want)[0] <= 32 * 32:
            return name
    return None


def matches_one(picture, frames, cursor=None):
    """Whether `picture` (but for the cursor: the corner it is parked in, or its box
    around `cursor`, a frame-pixel point) is one of `frames`; else how many pixels it
    differs from the last of them in, and where."""
    for frame in frames:
        if without_cursor(picture, frame, cursor)[2] == frame[2]:
            return True, ""
    differing, box = differing_pixels(without_cursor(picture, frames[-1], cursor), frames[-1])
    return False, f"{differing} pixels differ from the last{box}"


def rendered_from_end(directory, limit):
    """The last `limit` pictures of a headless render, the newest first, each decoded
    only when asked for (a picture takes a second or so to decode here)."""
    for name in sorted(os.listdir(directory))[::-1][:limit]:
        yield pictures.decode_png_rgb(os.path.join(directory, name))


def matches_one_of_last(picture, directory, limit, cursor=None):
    """`matches_one` over the last `limit` pictures in `directory`, stopping at the first
    equal one."""
    last = None
    for frame in rendered_from_end(directory, limit):
        found, _ = matches_one(picture, [frame], cursor)
        if found:
            return True, ""
        last = last or frame
    if last is None:
        return False, f"no pictures in {directory}"
    differing, box = differing_pixels(without_cursor(picture, last, cursor), last)
    return False, f"{differing} pixels differ from the last{box}"


def drawing_render(size, dots):
    """The directory of the pictures the headless render shows while `dots` are drawn
    at `size` (WxH), the finger resting on the last dot's centre in whole pixels as the
    virtual pointer holds it: a synthetic capture of the gesture, without jitter,
    replayed. Its last pictures are the finger on the last dot, the verdict, the idle
    lock."""
    name = "-".join(map(str, dots))
    out = os.path.join(WORK, f"drawing-{name}-{size}")
    capture = out + ".yaml"
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "make-capture.py"), "--device", "ft5406", "--size", size, "--path", name,
                    "--jitter", "0", "--patternlock", PATTERNLOCK, "-o", capture], check=True, capture_output=True)
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([PATTERNLOCK, "replay", capture, "--size", size, "--dump", out], check=True, capture_output=True)
    return out


def countdown_render(size):
    """The directory of the pictures the headless render shows for WRONG_ONES drawn at
    `size` (WxH) against a vault of PATTERN, then five more gestures refused during the
    lockout, so the countdown runs on the recording's clock for about fifteen seconds
    (its ticks are the last pictures: one a second, from 1:00 down)."""
    state = os.path.join(WORK, f"state-countdown-{size}")
    out = os.path.join(WORK, f"countdown-{size}")
    capture = out + ".yaml"
    subprocess.run(["rm", "-rf", state, out], check=True)
    os.makedirs(state, mode=0o700)
    subprocess.run([PATTERNLOCK, "set-pattern", "--state-dir", state, "--argon-passes", "1", "--argon-memory-mib", "8"],
                   input="-".join(map(str, PATTERN)) + "\n", text=True, check=True, capture_output=True)
    paths = ["-".join(map(str, dots)) for dots in WRONG_ONES] + ["-".join(map(str, PATTERN))] * 5
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "make-capture.py"), "--device", "ft5406", "--size", size, "--patternlock",
                    PATTERNLOCK, "-o", capture] + [a for path in paths for a in ("--path", path)], check=True, capture_output=True)
    subprocess.run([PATTERNLOCK, "replay", capture, "--size", size, "--state-dir", state, "--dump", out], check=True,
                   capture_output=True)
    return out


def hold_drawing(compositor, output, dots, names):
    """Draws `dots` on `output` (scale 1) with the button held on the last one, and takes
    the pictures of `names` meanwhile; returns them and the held point (frame pixels)."""
    x0, y0, width, height = compositor.outputs[output]
    grid = layout(width, height)
    points = [f"{x0 + grid.centre(d)[0]},{y0 + grid.centre(d)[1]}" for d in dots]
    extent = compositor.extent
    pointer = subprocess.Popen([POINTER, str(extent[0]), str(extent[1]), "--hold", "5000"] + points, env=host_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = pointer.stdout.readline().strip()
        expect(line == "holding", f"virtual-pointer: {line!r} {pointer.stderr.read() if pointer.poll() is not None else ''}")
        # The lock's frame of the last motion.
        time.sleep(0.4)
        shots = {name: compositor.picture(name) for name in names}
    finally:
        pointer.wait(timeout=20)
    return shots, grid.centre(dots[-1])


def differing_pixels(picture, want):
    """How many pixels of `picture` differ from `want`, and the box around them."""
    width, _, rgb = picture
    xs, ys = [], []
    for i in range(0, len(rgb), 3):
        if rgb[i:i + 3] != want[2][i:i + 3]:
            xs.append((i // 3) % width)
            ys.append((i // 3) // width)
    box = f" in {min(xs)},{min(ys)} to {max(xs)},{max(ys)}" if xs else ""
    return len(xs), box


def draw(compositor, output, dots, scale=1):
    """Draws `dots` with the virtual pointer on `output` (frame pixels / scale = logical)."""
    x0, y0, width, height = compositor.outputs[output]
    grid = layout(width * scale, height * scale)
    points = [f"{x0 + grid.centre(d)[0] / scale:.1f},{y0 + grid.centre(d)[1] / scale:.1f}" for d in dots]
    extent = compositor.extent
    result = subprocess.run([POINTER, str(extent[0]), str(extent[1])] + points, env=host_env(), capture_output=True, text=True,
                            timeout=30)
    expect(result.returncode == 0, f"virtual-pointer: {result.stderr.strip()}")


def hover_away(compositor, output):
    """Moves the pointer to `output`'s bottom-right pixel, where the cursor shows at
    most a corner (`cursor_box` leaves it out of comparisons)."""
    x0, y0, width, height = compositor.outputs[output]
    extent = compositor.extent
    corner = f"{x0 + width - 1},{y0 + height - 1}"
    subprocess.run([POINTER, str(extent[0]), str(extent[1]), "--hover", corner, corner], env=host_env(), capture_output=True,
                   timeout=30)
    time.sleep(0.3)


def without_cursor(picture, want, at=None):
    """`picture` with the cursor's pixels taken from `want`: its bottom-right 32x32 (the
    corner the cursor is parked in), or with `at` (frame pixels) the 64x64 box around
    the point the cursor is held at."""
    width, height, rgb = picture
    rows = bytearray(rgb)
    left, top, right, bottom = (width - 32, height - 32, width, height) if at is None else (
        max(0, at[0] - 32), max(0, at[1] - 32), min(width, at[0] + 32), min(height, at[1] + 32))
    for y in range(top, bottom):
        start, end = (y * width + left) * 3, (y * width + right) * 3
        rows[start:end] = want[2][start:end]
    return width, height, bytes(rows)


def with_grid_of(frame, idle, grid):
    """`frame` with the grid's rectangle (`patternlock layout`'s) taken from `idle`: what
    an output beside the gesture's shows of a verdict (the prompt, not the dots)."""
    width, _, rgb = frame
    rows = bytearray(rgb)
    for y in range(grid["y"], grid["y"] + grid["height"]):
        start, end = (y * width + grid["x"]) * 3, (y * width + grid["x"] + grid["width"]) * 3
        rows[start:end] = idle[2][start:end]
    return width, frame[1], bytes(rows)


def failures():
    status = subprocess.run([PATTERNLOCK, "status", "--state-dir", STATE], capture_output=True, text=True)
    return json.loads(status.stdout)["failures"]


def wait_locked(compositor, lock):
    """Waits until the lock is on screen; returns the output it is drawn on."""
    found = []

    def shown():
        if lock.process.poll() is not None:
            raise Failure(f"session-lock ended with {lock.process.returncode}: {lock.stderr().strip()}")
        name = drawing_output(compositor)
        if name:
            found.append(name)
        return bool(name)
    compositor.wait_for(shown, "lock on screen")
    return found[-1]


def fake_registry(path, stop):
    """A Wayland socket whose registry offers wl_compositor and wl_shm only: a compositor
    without ext-session-lock-v1 (each sync is answered; binds are ignored)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.settimeout(10)
    try:
        connection, _ = server.accept()
    except socket.timeout:
        return
    connection.settimeout(5)

    def event(object_id, opcode, payload):
        # The client may hang up at any time (it has what it needed).
        with contextlib.suppress(OSError):
            connection.sendall(struct.pack("<II", object_id, (8 + len(payload)) << 16 | opcode) + payload)

    def text(value):
        data = value.encode() + b"\0"
        return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)
    buffer, registry, serial = b"", None, 1
    while not stop.is_set():
        try:
            data = connection.recv(4096)
        except OSError:
            break
        if not data:
            break
        buffer += data
        while len(buffer) >= 8:
            object_id, word = struct.unpack("<II", buffer[:8])
            size, opcode = word >> 16, word & 0xffff
            if len(buffer) < size:
                break
            body, buffer = buffer[8:size], buffer[size:]
            if object_id == 1 and opcode == 1:  # wl_display.get_registry
                registry = struct.unpack("<I", body[:4])[0]
                event(registry, 0, struct.pack("<I", 1) + text("wl_compositor") + struct.pack("<I", 4))
                event(registry, 0, struct.pack("<I", 2) + text("wl_shm") + struct.pack("<I", 1))
            elif object_id == 1 and opcode == 0:  # wl_display.sync
                callback = struct.unpack("<I", body[:4])[0]
                event(callback, 0, struct.pack("<I", serial))
                event(1, 1, struct.pack("<I", callback))  # wl_display.delete_id
                serial += 1
    connection.close()
    server.close()


def one_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    expect(len(lines) == 1, f"{len(lines)} lines on standard error: {text!r}")
    return lines[0]


# ---- the checks ---------------------------------------------------------------------

def refusals():
    def no_display():
        result = subprocess.run([PATTERNLOCK, "session-lock", "--state-dir", STATE], capture_output=True, text=True, timeout=20,
                                env=dict(os.environ, XDG_RUNTIME_DIR=WORK, WAYLAND_DISPLAY="no-such-display"))
        expect(result.returncode != 0, "exit 0 without a display")
        line = one_line(result.stderr)
        expect("cannot connect to the Wayland display no-such-display" in line, line)
        return line
    checks.check("no Wayland display: one line, non-zero exit", no_display)

    def missing_protocol():
        path = os.path.join(WORK, "fake-0")
        if os.path.exists(path):
            os.remove(path)
        stop = threading.Event()
        server = threading.Thread(target=fake_registry, args=(path, stop), daemon=True)
        server.start()
        time.sleep(0.2)
        result = subprocess.run([PATTERNLOCK, "session-lock", "--state-dir", STATE], capture_output=True, text=True, timeout=20,
                                env=dict(os.environ, XDG_RUNTIME_DIR=WORK, WAYLAND_DISPLAY="fake-0"))
        stop.set()
        expect(result.returncode != 0, "exit 0 without the protocol")
        line = one_line(result.stderr)
        expect("ext_session_lock_manager_v1" in line, line)
        return line
    checks.check("a compositor without ext-session-lock-v1: refused in one line", missing_protocol)


def lock_wrong_right():
    compositor = Compositor(outputs=2)
    lock = None
    try:
        lock = Lock("--state-dir", STATE, "--feedback-ms", str(FEEDBACK_MS))
        where = []
        checks.require("the lock is shown (two outputs)", lambda: where.append(wait_locked(compositor, lock)) or where[0])
        output = where[0]
        other = next(name for name in compositor.outputs if name != output)

        def picture_is_the_render():
            hover_away(compositor, output)
            width, height, rgb = compositor.picture(output)
            want = frame_at(f"{width}x{height}")
            expect((width, height) == want[:2], f"{width}x{height}, the render {want[0]}x{want[1]}")
            differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
            expect(differing == 0, f"{differing} pixels differ from the headless render{box}")
            return f"{output} {width}x{height} equals the headless render"
        checks.check("the picture is the lock screen's idle frame", picture_is_the_render)

        def other_output_idle():
            width, height, rgb = compositor.picture(other)
            want = frame_at(f"{width}x{height}")
            differing, box = differing_pixels((width, height, rgb), want)
            expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
            return f"{other} {width}x{height} equals the headless render"
        checks.check("the other output shows the idle lock screen too", other_output_idle)

        def wrong_is_counted():
            draw(compositor, output, WRONG)
            deadline = time.monotonic() + 10
            while '"result":"wrong"' not in lock.stdout() and time.monotonic() < deadline:
                time.sleep(0.1)
            expect('"result":"wrong"' in lock.stdout(), f"no wrong verdict: {lock.stdout()!r}")
            expect(lock.process.poll() is None, f"session-lock ended ({lock.process.returncode})")
            expect(failures() == 1, f"failures {failures()}")
            expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
            # The verdict, held FEEDBACK_MS, is one of the headless render's pictures.
            hover_away(compositor, output)
            picture = compositor.picture(output)
            frames = verdict_frames(f"{picture[0]}x{picture[1]}", WRONG, FEEDBACK_MS)
            wrong = [f for f in frames if bytes(WRONG_COLOUR) in f[2]]
            expect(wrong, "the render shows no wrong verdict")
            found, why = matches_one(picture, wrong)
            expect(found, f"the wrong verdict is none of the render's: {why}")
            time.sleep(FEEDBACK_MS / 1000)
            return "still locked, failures 1, the verdict equal to the headless render's"
        checks.check("a wrong pattern drawn through the compositor does not unlock and is counted", wrong_is_counted)

        def second_locker_refused():
            second = Lock("--state-dir", STATE)
            status = second.wait(15)
            line = one_line(second.stderr())
            expect(status not in (None, 0), f"exit status {status}")
            expect("refused the session lock" in line, line)
            expect(lock.process.poll() is None, "the first lock ended")
            expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
            return line
        checks.check("a second session-lock is refused in one line; the first keeps the lock", second_locker_refused)

        def right_unlocks():
            draw(compositor, output, PATTERN)
            hover_away(compositor, output)
            picture = compositor.picture(output)
            frames = [f for f in verdict_frames(f"{picture[0]}x{picture[1]}", PATTERN, FEEDBACK_MS)
                      if bytes(SUCCESS_COLOUR) in f[2]]
            expect(frames, "the render shows no unlocked verdict")
            found, why = matches_one(picture, frames)
            expect(found, f"the unlocked verdict is none of the render's: {why}")
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            expect("unlocked" in lock.stdout(), lock.stdout())
            compositor.wait_for(lambda: all(is_desktop(compositor.colour_at_centre(o)) for o in compositor.outputs), "desktop")
            expect(failures() == 0, f"failures {failures()} after the unlock")
            return "the unlocked verdict equal to the headless render's, exit 0, the desktop shows again"
        checks.check("the right pattern unlocks and session-lock exits 0", right_unlocks)
    except Skip:
        pass
    finally:
        if lock:
            lock.kill()
        compositor.stop()


def killed_and_taken_over():
    compositor = Compositor(outputs=1)
    locks = []
    try:
        first = Lock("--state-dir", STATE)
        locks.append(first)
        where = []
        checks.require("a lock to kill is shown", lambda: where.append(wait_locked(compositor, first)) or where[0])
        output = where[0]

        def stays_locked():
            first.kill(signal.SIGKILL)
            time.sleep(1.0)
            colour = compositor.colour_at_centre(output)
            expect(not is_desktop(colour), "the desktop shows after the lock was killed")
            return f"{output} shows {colour}"
        checks.check("killing the client leaves the session locked", stays_locked)

        def taken_over():
            second = Lock("--state-dir", STATE)
            locks.append(second)
            wait_locked(compositor, second)
            draw(compositor, output, PATTERN)
            status = second.wait(15)
            expect(status == 0, f"exit status {status}: {second.stderr().strip()}")
            compositor.wait_for(lambda: is_desktop(compositor.colour_at_centre(output)), "desktop")
            return "the new lock took over and unlocked"
        checks.check("a new session-lock takes the abandoned lock over", taken_over)
    except Skip:
        pass
    finally:
        for lock in locks:
            lock.kill()
        compositor.stop()


def keyboard_and_judge_socket():
    compositor = Compositor(outputs=1)
    judge = lock = None
    try:
        lock = Lock("--state-dir", STATE)
        wait_locked(compositor, lock)

        def keys_unlock():
            # One virtual keyboard for all the keys, after a pause in which the lock
            # takes the new keyboard and its keymap.
            result = in_root("wtype", "-s", "400", "".join(str(dot) for dot in PATTERN), "-k", "Return")
            expect(result.returncode == 0, f"wtype: {result.stderr.strip()}")
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            return "digits and Enter through the virtual keyboard"
        checks.check("the keyboard (xkbcommon keysyms) unlocks", keys_unlock)

        sock = os.path.join(WORK, "judge.sock")
        if os.path.exists(sock):
            os.remove(sock)
        judge_log = open(os.path.join(WORK, "judge.log"), "w+")
        judge = subprocess.Popen(["systemd-socket-activate", "-l", sock, "--accept", "--inetd", PATTERNLOCK, "judge", "--state-dir", STATE],
                                 stdout=subprocess.DEVNULL, stderr=judge_log, start_new_session=True)
        time.sleep(0.5)

        def judged_over_socket():
            lock2 = Lock("--judge-socket", sock)
            try:
                output = wait_locked(compositor, lock2)
                draw(compositor, output, WRONG)
                deadline = time.monotonic() + 10
                while '"result":"wrong"' not in lock2.stdout() and time.monotonic() < deadline:
                    time.sleep(0.1)
                expect('"result":"wrong"' in lock2.stdout(), f"no wrong verdict: {lock2.stdout()!r} {lock2.stderr()!r}")
                expect(failures() == 1, f"failures {failures()}")
                time.sleep(1.0)
                draw(compositor, output, PATTERN)
                status = lock2.wait(15)
                expect(status == 0, f"exit status {status}: {lock2.stderr().strip()}")
                judge_log.seek(0)
                logged = judge_log.read()
                expect("judge: uid " in logged, f"the judge logged no peer: {logged!r}")
                return "wrong counted, right unlocked, both judged by patternlock judge"
            finally:
                lock2.kill()
        checks.check("session-lock judged over the judge's socket", judged_over_socket)
    except Failure as failure:
        checks.fail(f"keyboard and judge set-up: {failure}")
    finally:
        if lock:
            lock.kill()
        if judge and judge.poll() is None:
            os.killpg(judge.pid, signal.SIGTERM)
            judge.wait()
        compositor.stop()


def outputs_come_and_go():
    compositor = Compositor(outputs=2)
    lock = None
    try:
        lock = Lock("--state-dir", STATE)
        first = wait_locked(compositor, lock)
        other = next(name for name in compositor.outputs if name != first)

        def moves_when_its_output_goes():
            result = in_root("wlr-randr", "--output", first, "--off")
            expect(result.returncode == 0, f"wlr-randr --off: {result.stderr.strip()}")
            compositor.outputs = compositor.read_outputs()
            compositor.wait_for(lambda: drawing_output(compositor) == other, f"lock on {other}")
            expect(lock.process.poll() is None, f"session-lock ended: {lock.stderr().strip()}")
            expect(not is_desktop(compositor.colour_at_centre(other)), "the desktop shows")
            return f"{first} off: the lock drawn on {other}"
        checks.check("the drawing output switched off: the lock moves to the output that remains", moves_when_its_output_goes)

        def locked_when_it_comes_back():
            result = in_root("wlr-randr", "--output", first, "--on")
            expect(result.returncode == 0, f"wlr-randr --on: {result.stderr.strip()}")
            compositor.outputs = compositor.read_outputs()
            # labwc 0.8.3 keeps a re-enabled output blank but sends its new lock surface
            # no configure: what is checked is that no desktop shows there.
            time.sleep(1.0)
            colour = compositor.colour_at_centre(first)
            expect(not is_desktop(colour), f"{first} shows the desktop")
            draw(compositor, other, PATTERN)
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            return f"{first} back and showing {colour}, not the desktop; unlocked on {other}"
        checks.check("an output that comes back shows no desktop; the lock still unlocks", locked_when_it_comes_back)
    except Failure as failure:
        checks.fail(f"outputs coming and going: {failure}")
    finally:
        if lock:
            lock.kill()
        compositor.stop()


def fractional_scale():
    compositor = Compositor(outputs=1, scale=1.25)
    lock = None
    try:
        lock = Lock("--state-dir", STATE)

        def drawn_at_fractional_scale():
            output = wait_locked(compositor, lock)
            hover_away(compositor, output)
            width, height, rgb = compositor.picture(output)
            want = frame_at(f"{width}x{height}")
            differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
            expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
            expect(f"drawn at {width}x{height}" in lock.stdout(), f"not drawn at the output's pixels: {lock.stdout()!r}")
            x0, y0, logical_width, logical_height = compositor.outputs[output]
            grid = layout(width, height)
            points = [f"{x0 + grid.centre(d)[0] / 1.25:.1f},{y0 + grid.centre(d)[1] / 1.25:.1f}" for d in PATTERN]
            extent = compositor.extent
            result = subprocess.run([POINTER, str(extent[0]), str(extent[1])] + points, env=host_env(), capture_output=True,
                                    text=True, timeout=30)
            expect(result.returncode == 0, f"virtual-pointer: {result.stderr.strip()}")
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            return f"a {logical_width}x{logical_height} surface drawn at {width}x{height} (wp_fractional_scale_v1, wp_viewporter)"
        checks.check("scale 1.25: frames at the output's pixels through the fractional scale", drawn_at_fractional_scale)
    except Failure as failure:
        checks.fail(f"fractional scale set-up: {failure}")
    finally:
        if lock:
            lock.kill()
        compositor.stop()


def lockout_countdown():
    compositor = Compositor(outputs=1)
    lock = None
    try:
        output = next(iter(compositor.outputs))
        lock = Lock("--state-dir", STATE)
        wait_locked(compositor, lock)

        shots = []

        def countdown_shown():
            for dots in WRONG_ONES:
                draw(compositor, output, dots)
                time.sleep(1.0)
            expect(failures() == LOCKOUT_AFTER, f"failures {failures()}")
            expect("retry_in_s" in lock.stdout(), f"no lockout in {lock.stdout()!r}")
            hover_away(compositor, output)
            picture = compositor.picture(output)
            size = f"{picture[0]}x{picture[1]}"
            idle = frame_at(size)
            expect(not matches_one(picture, [idle])[0], "the idle prompt shows, not the countdown")
            shots.append(picture)
            return f"{LOCKOUT_AFTER} wrong (all different): locked out, the countdown shown"
        checks.check("five different wrong patterns start the lockout", countdown_shown)

        def right_refused_while_locked_out():
            draw(compositor, output, PATTERN)
            time.sleep(1.5)
            expect(lock.process.poll() is None, f"session-lock ended with {lock.process.returncode}")
            expect(failures() == LOCKOUT_AFTER, f"failures {failures()}")
            expect(not is_desktop(compositor.colour_at_centre(output)), "the desktop shows")
            return "still locked, nothing counted"
        checks.check("during the lockout even the right pattern does not unlock", right_refused_while_locked_out)

        def countdown_is_the_render():
            expect(shots, "no picture of the countdown was taken")
            picture = shots[0]
            # One of the render's pictures of the same lockout (its seconds tick on both
            # clocks alike); compared after the lockout's checks, as decoding takes time.
            # Every second of the render's countdown, from 1:00 down: the strong
            # pattern's five refused drawings take about fifteen seconds.
            found, why = matches_one_of_last(picture, countdown_render(f"{picture[0]}x{picture[1]}"), 20)
            expect(found, f"the countdown is none of the render's last 20 pictures: {why}")
            return f"{picture[0]}x{picture[1]} equals the headless render's countdown"
        checks.check("the lockout's countdown is the headless render's", countdown_is_the_render)
    except Failure as failure:
        checks.fail(f"lockout set-up: {failure}")
    finally:
        if lock:
            lock.kill()
        compositor.stop()
        subprocess.run([PATTERNLOCK, "reset-attempts", "--state-dir", STATE], capture_output=True)


def scale_two():
    compositor = Compositor(outputs=1, scale=2)
    lock = None
    try:
        lock = Lock("--state-dir", STATE)

        def drawn_at_scale():
            output = wait_locked(compositor, lock)
            hover_away(compositor, output)
            width, height, rgb = compositor.picture(output)
            _, _, logical_width, logical_height = compositor.outputs[output]
            expect((width, height) == (logical_width * 2, logical_height * 2), f"picture {width}x{height}")
            want = frame_at(f"{width}x{height}")
            differing, box = differing_pixels(without_cursor((width, height, rgb), want), want)
            expect(differing == 0, f"{differing} pixels differ from the headless render at {width}x{height}{box}")
            draw(compositor, output, PATTERN, scale=2)
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            return f"a {logical_width}x{logical_height} surface drawn at {width}x{height}, unlocked by the pointer"
        checks.check("scale 2: sharp frames at the output's pixels, input scaled", drawn_at_scale)
    except Failure as failure:
        checks.fail(f"scale 2 set-up: {failure}")
    finally:
        if lock:
            lock.kill()
        compositor.stop()


def two_outputs_drawing():
    """Two outputs of different sizes: each shows the lock laid out for itself; the one
    the pointer went down on shows the drawing, the other the prompt alone; a verdict
    shows on both, the pattern only on its own."""
    compositor = Compositor(outputs=2)
    lock = None
    try:
        names = list(compositor.outputs)
        # The headless back-end takes any mode: the second output becomes 800x480 (the
        # Pi touch display's size), the first keeps 1280x720.
        result = in_root("wlr-randr", "--output", names[1], "--custom-mode", "800x480")
        expect(result.returncode == 0, f"wlr-randr --custom-mode: {result.stderr.strip()}")
        compositor.outputs = compositor.read_outputs()
        lock = Lock("--state-dir", STATE, "--feedback-ms", str(FEEDBACK_MS))
        first = wait_locked(compositor, lock)
        other = next(name for name in compositor.outputs if name != first)
        sizes = {name: f"{compositor.outputs[name][2]}x{compositor.outputs[name][3]}" for name in compositor.outputs}

        def each_laid_out_for_itself():
            expect(sizes[first] != sizes[other], f"both outputs are {sizes[first]}")
            hover_away(compositor, first)
            for name in (first, other):
                picture = compositor.picture(name)
                want = frame_at(sizes[name])
                differing, box = differing_pixels(without_cursor(picture, want), want)
                expect(differing == 0, f"{name}: {differing} pixels differ from the headless render at {sizes[name]}{box}")
            return f"{first} {sizes[first]} and {other} {sizes[other]} each equal the headless render of its size"
        checks.check("two outputs of different sizes: each shows the idle lock laid out for its own size", each_laid_out_for_itself)

        def drawing_on(target, beside):
            def body():
                dots = [1, 2, 3]
                shots, held = hold_drawing(compositor, target, dots, [target, beside])
                found, why = matches_one_of_last(shots[target], drawing_render(sizes[target], dots), 4, cursor=held)
                expect(found, f"{target}'s picture is not the render's finger on the last dot: {why}")
                expect(shots[target][2] != frame_at(sizes[target])[2], f"{target} shows the idle lock, not the drawing")
                want = frame_at(sizes[beside])
                differing, box = differing_pixels(without_cursor(shots[beside], want), want)
                expect(differing == 0, f"{beside} is not the idle lock: {differing} pixels differ{box}")
                # The three dots are too short to judge: their verdict has its time.
                time.sleep(FEEDBACK_MS / 1000 + 0.5)
                return f"{target} ({sizes[target]}) equals the render mid-gesture, {beside} ({sizes[beside]}) the idle lock"
            return body
        checks.check(f"the pointer held down on the first output: the drawing there, the prompt alone on the other",
                     drawing_on(first, other))
        checks.check(f"the pointer held down on the second output: the drawing there, the prompt alone on the first",
                     drawing_on(other, first))

        def verdict_on_both():
            draw(compositor, other, WRONG)
            hover_away(compositor, other)
            shots = {name: compositor.picture(name) for name in (other, first)}
            wrong = [f for f in verdict_frames(sizes[other], WRONG, FEEDBACK_MS) if bytes(WRONG_COLOUR) in f[2]]
            expect(wrong, "the render shows no wrong verdict")
            found, why = matches_one(shots[other], wrong)
            expect(found, f"{other}'s verdict is none of the render's: {why}")
            beside = [f for f in verdict_frames(sizes[first], WRONG, FEEDBACK_MS) if bytes(WRONG_COLOUR) in f[2]]
            grid = layout(*(int(v) for v in sizes[first].split("x"))).grid
            idle = frame_at(sizes[first])
            found, why = matches_one(shots[first], [with_grid_of(f, idle, grid) for f in beside])
            expect(found, f"{first} does not show the verdict's prompt over the idle dots: {why}")
            time.sleep(FEEDBACK_MS / 1000)
            return f"{other} shows the wrong pattern in red, {first} the red prompt over untouched dots"
        checks.check("a wrong pattern on the second output: the verdict on both, the pattern only there", verdict_on_both)

        def unlocks_on_the_first():
            draw(compositor, first, PATTERN)
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            return "the gesture moved back to the first output and unlocked"
        checks.check("the right pattern on the first output unlocks", unlocks_on_the_first)
    except Failure as failure:
        checks.fail(f"two outputs drawing: {failure}")
    finally:
        if lock:
            lock.kill()
        compositor.stop()
        subprocess.run([PATTERNLOCK, "reset-attempts", "--state-dir", STATE], capture_output=True)


def desktop_user():
    """session-lock as an unprivileged desktop user (nobody), as docs/raspberry-pi.md
    section 11 sets it up: the compositor's socket is the user's, the vault is root's
    and out of its reach, and root's judge answers over a socket anyone may ask here
    (the unit's SocketGroup says who on a Pi)."""
    compositor = Compositor(outputs=1)
    judge = lock = None
    try:
        # The user's runtime directory, and the compositor's socket opened to it (labwc
        # runs as root here; on a Pi both are the user's own).
        runtime = os.path.join(WORK, "runtime-nobody")
        subprocess.run(["rm", "-rf", runtime], check=True)
        os.makedirs(runtime, mode=0o700)
        os.chown(runtime, pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid)
        os.chmod(RUNTIME, 0o711)
        os.chmod(os.path.join(RUNTIME, "wayland-0"), 0o666)
        env = {"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": os.path.join(RUNTIME, "wayland-0")}
        sockets = os.path.join(WORK, "judge-socket-dir")
        subprocess.run(["rm", "-rf", sockets], check=True)
        os.makedirs(sockets)
        os.chmod(sockets, 0o755)
        sock = os.path.join(sockets, "judge.sock")
        judge_log = open(os.path.join(WORK, "judge-nobody.log"), "w+")
        judge = subprocess.Popen(["systemd-socket-activate", "-l", sock, "--accept", "--inetd", PATTERNLOCK, "judge", "--state-dir", STATE],
                                 stdout=subprocess.DEVNULL, stderr=judge_log, start_new_session=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(sock) and time.monotonic() < deadline:
            time.sleep(0.1)
        os.chmod(sock, 0o666)
        lock = Lock("--judge-socket", sock, user="nobody", env=env)
        output = wait_locked(compositor, lock)

        def runs_as_the_user():
            with open(f"/proc/{lock.process.pid}/status") as status:
                uid = next(line.split()[1] for line in status if line.startswith("Uid:"))
            nobody = str(pwd.getpwnam("nobody").pw_uid)
            expect(uid == nobody, f"session-lock runs as uid {uid}")
            refused = subprocess.run([PATTERNLOCK, "status", "--state-dir", STATE], capture_output=True, text=True, user="nobody",
                                     group="nogroup", extra_groups=[], env=env)
            expect(refused.returncode != 0, "the user can read the vault's state")
            return f"uid {uid}, on {output}; the vault's state is out of its reach"
        checks.check("session-lock as an unprivileged desktop user locks the session", runs_as_the_user)

        def judged_for_the_user():
            draw(compositor, output, WRONG)
            deadline = time.monotonic() + 10
            while '"result":"wrong"' not in lock.stdout() and time.monotonic() < deadline:
                time.sleep(0.1)
            expect('"result":"wrong"' in lock.stdout(), f"no wrong verdict: {lock.stdout()!r} {lock.stderr()!r}")
            expect(failures() == 1, f"failures {failures()}")
            time.sleep(1.0)
            draw(compositor, output, PATTERN)
            status = lock.wait(15)
            expect(status == 0, f"exit status {status}: {lock.stderr().strip()}")
            compositor.wait_for(lambda: is_desktop(compositor.colour_at_centre(output)), "desktop")
            judge_log.seek(0)
            logged = judge_log.read()
            nobody = pwd.getpwnam("nobody").pw_uid
            expect(f"judge: uid {nobody}" in logged, f"the judge did not name the user: {logged!r}")
            return f"wrong counted by root's judge, right unlocked with exit 0, the judge logged uid {nobody}"
        checks.check("the desktop user's lock is judged by root's judge over its socket", judged_for_the_user)
    except Failure as failure:
        checks.fail(f"desktop user set-up: {failure}")
    finally:
        if lock:
            lock.kill()
        if judge and judge.poll() is None:
            os.killpg(judge.pid, signal.SIGTERM)
            judge.wait()
        compositor.stop()
        subprocess.run([PATTERNLOCK, "reset-attempts", "--state-dir", STATE], capture_output=True)


def main():
    os.makedirs(WORK, exist_ok=True)
    subprocess.run(["rm", "-rf", STATE], check=True)
    os.makedirs(STATE, mode=0o700)
    subprocess.run([PATTERNLOCK, "set-pattern", "--state-dir", STATE, "--argon-passes", "1", "--argon-memory-mib", "8"],
                   input="-".join(map(str, PATTERN)) + "\n", text=True, check=True, capture_output=True)
    steps = [refusals, lock_wrong_right, two_outputs_drawing, killed_and_taken_over, keyboard_and_judge_socket, desktop_user,
             outputs_come_and_go, scale_two, fractional_scale, lockout_countdown]
    for step in steps:
        try:
            step()
        except Failure as failure:
            checks.fail(f"{step.__name__}: {failure}")
    print(f"wayland: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
