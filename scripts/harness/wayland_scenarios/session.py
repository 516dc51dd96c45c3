"""What every session-lock scenario shares: the paths given on the command line, the
vault's pattern and the wrong ones, the check counters, commands in the trixie tree, the
compositor (labwc and swaybg's magenta desktop), session-lock runs and root's judge on
a socket; and `locked_session`, each scenario's set-up and teardown."""
import contextlib
import json
import os
import signal
import subprocess
import time

from lib import pictures
from lib.checks import Checks, Failure, Skip, expect
from lib.listener import wait_for_listener

RUNTIME_IN_ROOT = "/run/wayland-test"
HARNESS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAKE_CAPTURE = os.path.join(HARNESS, "make-capture.py")
CAPTURES = os.path.normpath(os.path.join(HARNESS, "..", "..", "Tests", "Captures"))
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
# The vault's pattern: README.md's example, which set-pattern accepts (it refuses the
# head of an attacker's order).
PATTERN = [2, 5, 9, 4, 3]
WRONG = [1, 4, 7, 8]


class Paths:
    """Where the test's pieces are: the trixie tree, the patternlock under test, the
    virtual pointer client and the work directory (the command line's), the tree's
    runtime directory seen from the host, and the vault's state directory."""

    def __init__(self):
        self.root = self.patternlock = self.pointer = self.work = self.runtime = self.state = None

    def set(self, arguments):
        self.root, self.patternlock, self.pointer, self.work = (os.path.abspath(a) for a in arguments)
        self.runtime = self.root + RUNTIME_IN_ROOT
        self.state = os.path.join(self.work, "state")


# Filled in by the entry point before any scenario runs.
paths = Paths()
checks = Checks()


def is_desktop(colour):
    """swaybg's magenta (the compositor's blending may round it a little)."""
    r, g, b = colour
    return r > 200 and g < 60 and b > 200


def in_root(*command, display="wayland-0", **options):
    """A command run inside the trixie tree, as a client of its compositor."""
    env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}", f"WAYLAND_DISPLAY={display}"]
    return subprocess.run(["chroot", paths.root] + env + list(command), capture_output=True, text=True, timeout=30, **options)


def host_env(display="wayland-0"):
    """The environment of a host process connecting to the tree's compositor."""
    return dict(os.environ, XDG_RUNTIME_DIR=paths.runtime, WAYLAND_DISPLAY=display)


class Compositor:
    """labwc, headless with `outputs` outputs at `scale`, and swaybg's magenta desktop."""

    def __init__(self, outputs=2, scale=1):
        os.makedirs(paths.runtime, mode=0o700, exist_ok=True)
        for name in os.listdir(paths.runtime):
            os.remove(os.path.join(paths.runtime, name))
        env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}",
               "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", f"WLR_HEADLESS_OUTPUTS={outputs}", "WLR_LIBINPUT_NO_DEVICES=1"]
        self.log = open(os.path.join(paths.work, "labwc.log"), "a")
        self.process = subprocess.Popen(["chroot", paths.root] + env + ["labwc"], stdout=self.log, stderr=subprocess.STDOUT,
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
        while not os.path.exists(os.path.join(paths.runtime, "wayland-0")):
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
            ["chroot", paths.root, "env", "-i", "PATH=/usr/bin:/bin", f"XDG_RUNTIME_DIR={RUNTIME_IN_ROOT}", "WAYLAND_DISPLAY=wayland-0",
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
        return pictures.decode_ppm(paths.root + inside)

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
        self.out = open(os.path.join(paths.work, "session-lock.out"), "w+")
        self.err = open(os.path.join(paths.work, "session-lock.err"), "w+")
        # As `user` (a name), in no group but its own: the desktop user of a Pi.
        as_user = {"user": user, "group": user if user != "nobody" else "nogroup", "extra_groups": []} if user else {}
        self.process = subprocess.Popen([paths.patternlock, "session-lock"] + list(arguments), stdout=self.out, stderr=self.err,
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

    def says(self, text, seconds=10):
        """Whether session-lock prints `text` on its standard output within `seconds`."""
        deadline = time.monotonic() + seconds
        while text not in self.stdout() and time.monotonic() < deadline:
            time.sleep(0.1)
        return text in self.stdout()

    def expect_exit_zero(self, seconds=15):
        """A Failure unless session-lock exits 0 (unlocked) within `seconds`."""
        status = self.wait(seconds)
        expect(status == 0, f"exit status {status}: {self.stderr().strip()}")


def failures():
    status = subprocess.run([paths.patternlock, "status", "--state-dir", paths.state], capture_output=True, text=True)
    return json.loads(status.stdout)["failures"]


def one_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    expect(len(lines) == 1, f"{len(lines)} lines on standard error: {text!r}")
    return lines[0]


def set_vault_pattern(state):
    """An empty vault in `state` holding PATTERN (a cheap hash)."""
    subprocess.run(["rm", "-rf", state], check=True)
    os.makedirs(state, mode=0o700)
    subprocess.run([paths.patternlock, "set-pattern", "--state-dir", state, "--argon-passes", "1", "--argon-memory-mib", "8"],
                   input="-".join(map(str, PATTERN)) + "\n", text=True, check=True, capture_output=True)


class Session:
    """One scenario's compositor and the locks and judges started against it."""

    def __init__(self, compositor):
        self.compositor = compositor
        self.locks = []
        self.judges = []

    def lock(self, *arguments, **options):
        """A session-lock run that `close` kills."""
        lock = Lock(*arguments, **options)
        self.locks.append(lock)
        return lock

    def judge(self, sock, log):
        """`patternlock judge` on the vault behind systemd-socket-activate at `sock` (each
        connection on its standard input and output, as with the unit), its standard
        error in `log`; `close` stops it."""
        judge = subprocess.Popen(["systemd-socket-activate", "-l", sock, "--accept", "--inetd", paths.patternlock, "judge",
                                  "--state-dir", paths.state], stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
        self.judges.append(judge)
        wait_for_listener(sock, 10, "systemd-socket-activate")
        return judge

    def close(self):
        for lock in self.locks:
            lock.kill()
        for judge in self.judges:
            if judge.poll() is None:
                os.killpg(judge.pid, signal.SIGTERM)
                judge.wait()
        self.compositor.stop()


@contextlib.contextmanager
def locked_session(outputs, scale=1, failure_label=None, reset_attempts=False):
    """A scenario's set-up and teardown: a compositor with `outputs` outputs at `scale`
    (if it does not come up, the Failure is the scenario's, named by the entry point),
    then the scenario's body with the Session. A failed `require` (Skip) ends the body;
    a Failure in it is one failed check named `failure_label`, or without a label is the
    scenario's. Then every lock and judge started is stopped, the compositor too, and
    with `reset_attempts` the vault's count is cleared for the next scenario."""
    session = Session(Compositor(outputs=outputs, scale=scale))
    try:
        yield session
    except Skip:
        pass
    except Failure as failure:
        if failure_label is None:
            raise
        checks.fail(f"{failure_label}: {failure}")
    finally:
        session.close()
        if reset_attempts:
            subprocess.run([paths.patternlock, "reset-attempts", "--state-dir", paths.state], capture_output=True)
